// Terminal view of `libs`: a table per framework (library → file, version, via), the copies on the machine,
// what running processes loaded, and the findings of the library checks with their fixes.
import { isBareOk } from '../../judge/checks/check.js';
import * as nodePath from 'node:path';
import type { Finding } from '../../judge/finding.js';
import { visibleLine } from '../escape.js';
import { findingLines } from '../finding-lines.js';
import { displayWidth, palette } from '../layout.js';
import { renderBlock } from '../terminal.js';
import type { Consumer, LibrariesSection, ResolvedLibrary } from '../../gather/snapshot/schema-libraries.js';
import type { Words } from '../../base/i18n/words.js';

const FRAMEWORK: Record<string, string> = { torch: 'PyTorch', tensorflow: 'TensorFlow', jax: 'JAX', cupy: 'CuPy' };

/**
 * Paths as short as they can be and still say which file: inside a consumer's own environment relative to it
 * ("site-packages/nvidia/cudnn/lib/libcudnn.so.9"), elsewhere with the lib/pythonX.Y part elided.
 */
export function shortPath(path: string, env: string | null): string {
  const m = /^(.*?)\/lib\/python\d+\.\d+\/site-packages\/(.*)$/.exec(path);
  if (!m) return visibleLine(path);
  if (env !== null && m[1] === env.replace(/\/$/, '')) return visibleLine(`site-packages/${m[2]}`);
  return visibleLine(`${m[1]}/…/site-packages/${m[2]}`);
}

export function renderLibs(
  words: Words,
  lib: LibrariesSection,
  findings: readonly Finding[],
  o: { color: boolean; verbose: boolean; width?: number; fromSnapshot?: boolean },
): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  // the answer first (one line per framework: which cuDNN and CUDA it loads, then any problem with its fix);
  // the tables behind it with -v (or for an ELF file given with --elf, whose closure is what was asked)
  const answer = answerLines(words, findings, c, width, o.verbose);
  const elf = lib.consumers.some((x) => x.framework === null);
  if (!o.verbose && !elf) {
    if (lib.consumers.length === 0) answer.unshift(c.dim(words.t('libs.noFramework')), '');
    return `${[...answer, '', c.dim(words.t('libs.tablesWithV'))].join('\n')}\n`;
  }
  const out: string[] = [...answer, ''];
  if (lib.consumers.length === 0) out.push(c.dim(words.t('libs.noFramework')));
  for (const con of lib.consumers) {
    out.push(
      `${c.bold(con.framework ? FRAMEWORK[con.framework]! : 'ELF')}  ` +
        `${shortPath(con.path, con.environment)}${
          con.environment ? c.dim(`  ` + `${words.t('libs.environment', { env: visibleLine(con.environment) })}`) : ''
        }`,
    );
    // an ELF file given with --elf: its whole closure (CUDA or not) is the answer asked for
    const rows = con.resolved
      .filter((r) => o.verbose || con.framework === null || r.family !== null || r.via === 'not_found')
      .map((r) => row(words, r, con, o.verbose));
    out.push(
      ...table(
        [words.t('libs.col.library'), words.t('libs.col.file'), words.t('libs.col.version'), words.t('libs.col.via')],
        rows,
        c,
      ).map((l) => `  ${l}`),
    );
    for (const r of con.resolved) {
      if (r.shadowed.length === 0 || !r.family) continue;
      const diff = r.shadowed.filter((x) => x.version !== r.version);
      if ((diff.length === 0 || r.family.startsWith('libcudnn_')) && !o.verbose) continue;
      for (const x of o.verbose ? r.shadowed : diff)
        out.push(
          c.dim(
            `    ` +
              words.t('libs.alsoReachable', {
                lib: r.name,
                path: shortPath(x.realPath ?? x.path, con.environment),
                version: x.version ?? '?',
                via: viaWords(words, x.via),
              }),
          ),
        );
    }
    if (o.verbose) for (const n of con.notes) out.push(c.dim(`    ${words.t('libs.note', { note: visibleLine(n) })}`));
    out.push('');
  }
  out.push(c.bold(words.t(o.fromSnapshot ? 'libs.copiesThat' : 'libs.copiesThis')));
  const families = [...new Set(lib.copies.map((k) => k.name))];
  const copyRows = families.flatMap((f) =>
    lib.copies
      .filter((k) => k.name === f)
      .filter((k) => o.verbose || !k.name.startsWith('libcudnn_'))
      .map((k) => [
        k.name,
        k.version ?? '?',
        k.origin,
        shortPath(k.path, null),
        k.package ? `${k.package.manager} ${visibleLine(k.package.name)}` : '',
      ]),
  );
  out.push(
    ...table(
      [
        words.t('libs.col.library'),
        words.t('libs.col.version'),
        words.t('libs.col.origin'),
        words.t('libs.col.file'),
        words.t('libs.col.package'),
      ],
      copyRows,
      c,
    ).map((l) => `  ${l}`),
  );
  if (!o.verbose && lib.copies.some((k) => k.name.startsWith('libcudnn_')))
    out.push(c.dim(`  ${words.t('libs.subHidden')}`));
  if (lib.processes.length > 0) {
    out.push('', c.bold(words.t('libs.loadedByProcesses')));
    for (const p of lib.processes) {
      if (!p.ok) {
        out.push(`  ${p.pid}: ${p.message ?? words.t('libs.notReadable')}`);
        continue;
      }
      const files = lib.loaded.filter((l) => l.pid === p.pid);
      out.push(
        `  ${p.pid}${p.framework ? ` (${FRAMEWORK[p.framework]})` : ''}: ` +
          (words.t('libs.mapped', { n: files.length }) +
            `${words.t('list.semicolon')}` +
            (p.consumer
              ? p.differences.length === 0
                ? c.green(words.t('libs.same'))
                : c.yellow(words.t('libs.differ', { n: p.differences.length }))
              : words.t('libs.noFw'))),
      );
      for (const f of files) out.push(`    ${shortPath(f.path, null)}${f.version ? c.dim(` (${f.version})`) : ''}`);
      for (const d of p.differences)
        out.push(
          c.yellow(
            `    ` +
              words.t('libs.loadedPredicted', {
                family: d.family,
                loaded: visibleLine(d.loaded ?? '?'),
                expected: visibleLine(d.expected ?? '?'),
              }),
          ),
        );
    }
  }
  out.push(
    '',
    c.dim(
      words.t(lib.ldCache.glibc ? 'libs.ldCacheGlibc' : 'libs.ldCache', {
        source: lib.ldCache.source,
        format: lib.ldCache.format ?? words.t('libs.unreadable'),
        n: lib.ldCache.entries,
        glibc: lib.ldCache.glibc ?? '',
        llp: visibleLine(lib.ldLibraryPath.join(':')) || words.t('libs.unset'),
      }),
    ),
  );
  return `${out.join('\n')}\n`;
}

/** what the library checks found: a ✓ line per framework's answer, then each problem with its fix */
function answerLines(
  words: Words,
  findings: readonly Finding[],
  c: ReturnType<typeof palette>,
  width: number,
  verbose: boolean,
): string[] {
  const out: string[] = [];
  const shown = findings.filter((f) => f.status !== 'ok' && f.status !== 'skip');
  const infos = findings.filter(
    (f) => f.status === 'ok' && f.severity === 'info' && !isBareOk(f) && f.check !== 'libs.loaded',
  );
  for (const f of infos) out.push(`${c.green('✓')} ${visibleLine(f.message)}`);
  if (shown.length > 0) {
    for (const f of shown)
      out.push(...(out.length > 0 ? [''] : []), ...renderBlock(words, findingLines(words, f), { width, c, verbose }));
  } else out.push(`${c.green('✓')} ${words.t('libs.noProblem')}`);
  return out;
}

function row(words: Words, r: ResolvedLibrary, con: Consumer, verbose: boolean): string[] {
  const via =
    r.via === 'preloaded'
      ? words.t('libs.via.preloaded', { by: con.framework ?? 'path' })
      : r.via === 'already_loaded' && r.firstVia
        ? words.t('libs.via.already_loadedVia', { via: viaWords(words, r.firstVia) })
        : viaWords(words, r.via);
  const p = (x: string) => (verbose ? visibleLine(x) : shortPath(x, con.environment));
  const file =
    r.path === null
      ? r.error
        ? words.t('libs.notFoundError', { error: visibleLine(r.error) })
        : words.t('libs.notFound')
      : r.realPath && r.realPath !== r.path
        ? `${p(r.path)} → ${visibleLine(nodePath.posix.basename(r.realPath))}`
        : p(r.path);
  return [r.name, file, r.version ?? '?', r.how === 'dlopen' ? words.t('libs.via.dlopen', { via }) : via];
}

function table(head: string[], rows: string[][], c: ReturnType<typeof palette>): string[] {
  // padded by display width: a column head in Chinese takes two columns a character
  const widths = head.map((h, i) =>
    Math.min(90, Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? '')))),
  );
  const fmt = (r: string[]) =>
    r
      .map((x, i) => (i === r.length - 1 ? x : x + ' '.repeat(Math.max(0, widths[i]! - displayWidth(x)))))
      .join('  ')
      .trimEnd();
  return [c.dim(fmt(head)), ...rows.map(fmt)];
}

/** how the loader found a library, in the reader's words (LD_LIBRARY_PATH, ld cache), never the raw id */
export function viaWords(words: Words, via: string): string {
  switch (via) {
    case 'rpath':
      return words.t('libs.via.rpath');
    case 'runpath':
      return words.t('libs.via.runpath');
    case 'ld_library_path':
      return words.t('libs.via.ld_library_path');
    case 'ld_cache':
      return words.t('libs.via.ld_cache');
    case 'default':
      return words.t('libs.via.default');
    case 'already_loaded':
      return words.t('libs.via.already_loaded');
    case 'not_found':
      return words.t('libs.via.not_found');
    case 'path':
      return words.t('libs.via.path');
    default:
      return via.replace(/_/g, ' ');
  }
}
