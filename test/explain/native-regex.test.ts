// explain's patterns compiled straight to machine code (src/judge/explain/read/native-regex.ts): V8 compiles a
// pattern to bytecode at its first exec and to machine code at its second, unless the first exec's subject is 1,000
// characters or more. `native` makes that first exec on line breaks; it must skip the bytecode (V8's trace says so),
// leave what a pattern matches as it was, and cost nothing much for any pattern of the registry.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { native } from '../../src/judge/explain/read/native-regex.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');

/** V8's regexp tier-up trace of a script that first imports the helper (as JavaScript) as `native` */
function trace(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-native-regex-'));
  try {
    const src = fs.readFileSync(path.join(repo, 'src/judge/explain/read/native-regex.ts'), 'utf8');
    fs.writeFileSync(path.join(dir, 'native.mjs'), transformSync(src, { loader: 'ts', format: 'esm' }).code);
    fs.writeFileSync(path.join(dir, 'main.mjs'), `import { native } from './native.mjs';\n${body}\n`);
    const r = spawnSync(process.execPath, ['--trace-regexp-tier-up', path.join(dir, 'main.mjs')], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const bytecodes = (out: string) => out.split('\n').filter((l) => /bytecode size/.test(l)).length;
const machineCodes = (out: string) => out.split('\n').filter((l) => /native code size/.test(l)).length;

describe('native', () => {
  it('compiles a pattern to machine code at once, never to bytecode', () => {
    const use = 'const re = /CUDA out of memory\\. Tried to allocate (\\S+)/i; re.exec("x"); re.exec("y");';
    const none = trace('void native;');
    const plain = trace(use);
    const primed = trace(use.replace('const re = ', 'const re = native(').replace('/i;', '/i);'));
    // the plain pattern: bytecode at its first exec, machine code at its second
    expect(bytecodes(plain)).toBe(bytecodes(none) + 1);
    expect(machineCodes(plain)).toBe(machineCodes(none) + 1);
    // through native: machine code only
    expect(bytecodes(primed)).toBe(bytecodes(none));
    expect(machineCodes(primed)).toBe(machineCodes(none) + 1);
  });

  it('leaves what a pattern matches, and a global one at lastIndex 0', () => {
    const g = native(/cud(?:a|nn)/g);
    expect(g.lastIndex).toBe(0);
    expect([...'cuda cudnn'.matchAll(g)].map((m) => m[0])).toEqual(['cuda', 'cudnn']);
    const d = native(/Tried to allocate (?<size>\S+ \S+)/di);
    const m = d.exec('OOM. tried to allocate 784.00 MiB.')!;
    expect(m.groups?.size).toBe('784.00 MiB.');
    expect(m.indices?.groups?.size).toEqual([23, 34]);
  });

  it('costs little for every pattern of the registry (none backtracks long over line breaks)', () => {
    const reg = registry();
    const patterns = [
      ...reg.signatures.flatMap((s) => (s.needs ? [s.re, s.needs] : [s.re])),
      ...reg.cues.map((c) => c.re),
    ];
    expect(patterns.length).toBeGreaterThan(500);
    const subject = '\n'.repeat(1000);
    let total = 0;
    let worst = 0;
    for (const re of patterns) {
      const t0 = performance.now();
      re.exec(subject);
      const dt = performance.now() - t0;
      total += dt;
      worst = Math.max(worst, dt);
    }
    // measured ~0.2 ms in all and ~6 µs at most; a pattern that backtracks over the whole subject at each position
    // takes milliseconds
    expect(total).toBeLessThan(100);
    expect(worst).toBeLessThan(20);
  });
});
