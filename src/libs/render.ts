// Terminal view of `libs`: a table per framework (library → file, version, via), the copies on the machine,
// what running processes loaded, and the findings of the library checks with their fixes.
import * as nodePath from 'node:path';
import pc from 'picocolors';
import { consequenceText, type Finding } from '../core/finding.js';
import type { Consumer, LibrariesSection, ResolvedLibrary } from './schema.js';

const FRAMEWORK: Record<string, string> = { torch: 'PyTorch', tensorflow: 'TensorFlow', jax: 'JAX', cupy: 'CuPy' };

export function renderLibs(lib: LibrariesSection, findings: readonly Finding[], o: { color: boolean; verbose: boolean }): string {
  const c = o.color ? pc : pc.createColors(false);
  const out: string[] = [];
  if (lib.consumers.length === 0) out.push(c.dim('No framework with CUDA libraries found (torch, tensorflow, jax, cupy) in the Python environments seen; use --python PATH or --elf FILE.'));
  for (const con of lib.consumers) {
    out.push(`${c.bold(con.framework ? FRAMEWORK[con.framework]! : 'ELF')}  ${con.path}${con.environment ? c.dim(`  (environment ${con.environment})`) : ''}`);
    const rows = con.resolved.filter((r) => o.verbose || con.framework === null || r.family !== null || r.via === 'not_found').map((r) => row(r, con));
    out.push(...table(['library', 'file', 'version', 'via'], rows, c).map((l) => `  ${l}`));
    for (const r of con.resolved) {
      if (r.shadowed.length === 0 || !r.family) continue;
      const diff = r.shadowed.filter((x) => x.version !== r.version);
      if ((diff.length === 0 || r.family.startsWith('libcudnn_')) && !o.verbose) continue;
      for (const x of o.verbose ? r.shadowed : diff) out.push(c.dim(`    ${r.name}: also reachable ${x.realPath ?? x.path} (${x.version ?? '?'}) via ${x.via.replace(/_/g, ' ')}, searched later`));
    }
    if (o.verbose) for (const n of con.notes) out.push(c.dim(`    note: ${n}`));
    out.push('');
  }
  out.push(c.bold('Copies on this machine'));
  const families = [...new Set(lib.copies.map((k) => k.name))];
  const copyRows = families.flatMap((f) =>
    lib.copies
      .filter((k) => k.name === f)
      .filter((k) => o.verbose || !k.name.startsWith('libcudnn_'))
      .map((k) => [k.name, k.version ?? '?', k.origin, k.path, k.package ? `${k.package.manager} ${k.package.name}` : '']),
  );
  out.push(...table(['library', 'version', 'origin', 'file', 'package'], copyRows, c).map((l) => `  ${l}`));
  if (!o.verbose && lib.copies.some((k) => k.name.startsWith('libcudnn_'))) out.push(c.dim('  (cuDNN sub-libraries hidden; -v shows them)'));
  if (lib.processes.length > 0) {
    out.push('', c.bold('Loaded by running processes'));
    for (const p of lib.processes) {
      if (!p.ok) {
        out.push(`  ${p.pid}: ${p.message ?? 'not readable'}`);
        continue;
      }
      const files = lib.loaded.filter((l) => l.pid === p.pid);
      out.push(`  ${p.pid}${p.framework ? ` (${FRAMEWORK[p.framework]})` : ''}: ${files.length} CUDA libraries mapped; ${p.consumer ? (p.differences.length === 0 ? c.green('agrees with the emulation') : c.yellow(`${p.differences.length} differ from the emulation`)) : 'no framework recognised'}`);
      for (const f of files) out.push(`    ${f.path}${f.version ? c.dim(` (${f.version})`) : ''}`);
      for (const d of p.differences) out.push(c.yellow(`    ${d.family}: loaded ${d.loaded}, emulation expected ${d.expected}`));
    }
  }
  out.push('', c.dim(`ld cache: ${lib.ldCache.source} (${lib.ldCache.format ?? 'unreadable'}, ${lib.ldCache.entries} entries${lib.ldCache.glibc ? `, glibc ${lib.ldCache.glibc}` : ''}); LD_LIBRARY_PATH=${lib.ldLibraryPath.join(':') || '(unset)'}`));
  const shown = findings.filter((f) => f.status !== 'ok' && f.status !== 'skip');
  const infos = findings.filter((f) => f.status === 'ok' && f.severity === 'info' && !f.message.endsWith(': ok') && f.check !== 'libs.loaded');
  if (infos.length > 0) {
    out.push('');
    for (const f of infos) out.push(`${c.green('✓')} ${f.message}`);
  }
  if (shown.length > 0) {
    out.push('');
    for (const f of shown) {
      const mark = f.severity === 'error' ? c.red('✗') : f.severity === 'warn' ? c.yellow('!') : c.magenta('?');
      out.push(`${mark} ${c.bold(f.message)} ${c.dim(`[${f.check}${f.rootCause ? ` · ${f.rootCause}` : ''}]`)}`);
      for (const q of f.consequences ?? []) out.push(`    → ${consequenceText(q, o.verbose, c.dim)}`);
      for (const e of f.evidence) out.push(`    ${c.dim('│')} ${e.text}${e.source ? c.dim(`   (${e.source})`) : ''}`);
      if (f.fix) {
        out.push(`    ${c.cyan('Fix:')} ${f.fix.text}`);
        for (const cmd of f.fix.commands) out.push(`      ${c.dim('$')} ${cmd}`);
        for (const m of f.fix.manual ?? []) out.push(`      ${c.dim('# check first:')} ${m}`);
      }
    }
  } else out.push('', `${c.green('✓')} No library problem found.`);
  return `${out.join('\n')}\n`;
}

function row(r: ResolvedLibrary, con: Consumer): string[] {
  const via = r.via === 'preloaded' ? `preloaded (${con.framework ?? 'path'})` : r.via === 'already_loaded' && r.firstVia ? `already loaded (${r.firstVia.replace(/_/g, ' ')})` : r.via.replace(/_/g, ' ');
  const file = r.path === null ? (r.error ? `NOT FOUND: ${r.error}` : 'NOT FOUND') : r.realPath && r.realPath !== r.path ? `${r.path} → ${nodePath.posix.basename(r.realPath)}` : r.path;
  return [r.name, file, r.version ?? '?', `${via}${r.how === 'dlopen' ? ', dlopen' : ''}`];
}

function table(head: string[], rows: string[][], c: ReturnType<typeof pc.createColors>): string[] {
  const widths = head.map((h, i) => Math.min(90, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
  const fmt = (r: string[]) => r.map((x, i) => (i === r.length - 1 ? x : x.padEnd(widths[i]!))).join('  ').trimEnd();
  return [c.dim(fmt(head)), ...rows.map(fmt)];
}
