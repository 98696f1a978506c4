// Builds tiny real shared libraries and programs with gcc, and asks the real loader what it does with them.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function gcc(args: string[], cwd: string): void {
  execFileSync('gcc', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface LibSpec {
  /** file to write, relative to the base folder: "a/libv.so.1.0.0" */
  file: string;
  soname?: string;
  /** value returned by version(): tells copies apart at run time */
  value?: number;
  /** other libraries to link against: [dir, "-lname"] pairs are given as full paths to .so files */
  needed?: string[];
  rpath?: string;
  runpath?: string;
  /** extra C source */
  source?: string;
  links?: string[];
  /** no libc in NEEDED (for --root trees that have no libc of their own) */
  nostdlib?: boolean;
}

/** Writes a shared library; `links` are symlinks (relative to the base) to the built file. */
export function buildLib(base: string, spec: LibSpec): string {
  const out = path.join(base, spec.file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const fn = `v_${path.basename(spec.file).replace(/\W/g, '_')}`;
  const src = path.join(base, `${fn}.c`);
  fs.writeFileSync(src, `${spec.source ?? ''}\nint ${fn}(void){return ${spec.value ?? 0};}\n`);
  const args = ['-shared', '-fPIC', '-o', out, src, '-Wl,--no-as-needed'];
  if (spec.nostdlib) args.push('-nostdlib');
  if (spec.soname) args.push(`-Wl,-soname,${spec.soname}`);
  for (const n of spec.needed ?? []) args.push(n.startsWith('-') ? n : n);
  if (spec.rpath !== undefined) args.push('-Wl,--disable-new-dtags', `-Wl,-rpath,${spec.rpath}`);
  if (spec.runpath !== undefined) args.push('-Wl,--enable-new-dtags', `-Wl,-rpath,${spec.runpath}`);
  gcc(args, base);
  for (const l of spec.links ?? []) {
    const lp = path.join(base, l);
    fs.mkdirSync(path.dirname(lp), { recursive: true });
    fs.rmSync(lp, { force: true });
    fs.symlinkSync(path.relative(path.dirname(lp), out), lp);
  }
  return out;
}

/** A program linked against libraries given as "-L<dir> -l<name>" pairs (soname recorded in NEEDED). */
export function buildProgram(
  base: string,
  file: string,
  opts: { libs: string[]; rpath?: string; runpath?: string; source?: string },
): string {
  const out = path.join(base, file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const src = `${out}.c`;
  fs.writeFileSync(src, opts.source ?? 'int main(void){return 0;}\n');
  const args = ['-o', out, src, '-Wl,--no-as-needed', ...opts.libs];
  if (opts.rpath !== undefined) args.push('-Wl,--disable-new-dtags', `-Wl,-rpath,${opts.rpath}`);
  if (opts.runpath !== undefined) args.push('-Wl,--enable-new-dtags', `-Wl,-rpath,${opts.runpath}`);
  if (opts.source?.includes('dlopen')) args.push('-ldl');
  gcc(args, base);
  return out;
}

export interface TraceLine {
  name: string;
  path: string | null;
}

/** The real loader's answer: LD_TRACE_LOADED_OBJECTS=1 (what ldd does), names → files, "not found". */
export function realTrace(
  program: string,
  env: Record<string, string> = {},
): { lines: TraceLine[]; status: number | null; stderr: string } {
  const r = spawnSync(program, [], {
    env: { PATH: '/usr/bin:/bin', ...env, LD_TRACE_LOADED_OBJECTS: '1' },
    encoding: 'utf8',
  });
  const lines: TraceLine[] = [];
  for (const l of r.stdout.split('\n')) {
    const m = /^\s+(\S+) => (.+?)(?: \(0x[0-9a-f]+\))?$/.exec(l);
    if (!m) continue;
    lines.push({ name: m[1]!, path: m[2] === 'not found' ? null : fs.realpathSync(m[2]!) });
  }
  return { lines, status: r.status, stderr: r.stderr };
}

/** Runs a program and returns the shared objects in its /proc/self/maps (the program prints them itself). */
export function realMaps(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): { files: string[]; status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(program, args, { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  const files = [
    ...new Set(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('MAP '))
        .map((l) => l.slice(4)),
    ),
  ];
  return { files, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** C source of a program that dlopens each argument ("path" or "@caller.so:name" = ask caller.so's opener) and prints its maps. */
export const DLOPEN_PROGRAM = `
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
typedef void *(*opener)(const char *);
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    void *h;
    if (argv[i][0] == '@') {
      char buf[4096]; strncpy(buf, argv[i] + 1, sizeof buf - 1); buf[sizeof buf - 1] = 0;
      char *colon = strchr(buf, ':'); *colon = 0;
      void *c = dlopen(buf, RTLD_NOW | RTLD_GLOBAL);
      if (!c) { printf("ERR %s\\n", dlerror()); continue; }
      opener o = (opener)dlsym(c, "open_from_here");
      h = o(colon + 1);
    } else h = dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) printf("ERR %s\\n", dlerror());
  }
  FILE *f = fopen("/proc/self/maps", "r"); char line[8192];
  while (fgets(line, sizeof line, f)) { char *p = strchr(line, '/'); if (p && strstr(p, ".so")) { p[strcspn(p, "\\n")] = 0; printf("MAP %s\\n", p); } }
  return 0;
}
`;

/** C source for a library whose code dlopens by name (so its own RUNPATH applies, as in cuDNN). */
export const OPENER_SOURCE = `
#include <dlfcn.h>
void *open_from_here(const char *name) { return dlopen(name, RTLD_NOW | RTLD_GLOBAL); }
`;
