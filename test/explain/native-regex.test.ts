// explain's patterns compiled straight to machine code (src/base/native-regex.ts): V8 compiles a
// pattern to bytecode at its first exec and to machine code at its second, unless the first exec's subject is 1,000
// characters or more. `native` makes that first exec on line breaks; it must skip the bytecode (V8's trace says so),
// leave what a pattern matches as it was, and match nothing of its subject for any pattern of the registry (what it
// costs: bench/native-regex-cost.mjs).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { native, nativeAtFirstUse, nativeWhenAsked } from '../../src/base/native-regex.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');

/** V8's regexp tier-up trace of a script that first imports the helper (as JavaScript) as `native` */
function trace(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-native-regex-'));
  try {
    const src = fs.readFileSync(path.join(repo, 'src/base/native-regex.ts'), 'utf8');
    fs.writeFileSync(path.join(dir, 'native.mjs'), transformSync(src, { loader: 'ts', format: 'esm' }).code);
    fs.writeFileSync(
      path.join(dir, 'main.mjs'),
      `import { native, nativeAtFirstUse, nativeWhenAsked } from './native.mjs';\n${body}\n`,
    );
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
    const none = trace('void native, nativeAtFirstUse, nativeWhenAsked;');
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

  // what the priming exec costs per pattern is timed by bench/native-regex-cost.mjs (a timing is not a test)
  it('primes every pattern of the registry: none matches the subject, each is left at lastIndex 0', () => {
    const reg = registry();
    const patterns = [
      ...reg.signatures.flatMap((s) => (s.needs ? [s.re, s.needs] : [s.re])),
      ...reg.cues.map((c) => c.re),
    ];
    expect(patterns.length).toBeGreaterThan(500);
    const subject = '\n'.repeat(1000);
    for (const re of patterns) {
      expect(native(re)).toBe(re);
      expect(re.lastIndex).toBe(0);
      expect(re.exec(subject), re.source).toBeNull();
    }
  });
});

/** a pattern that counts its execs (native's included) */
class Counted extends RegExp {
  execs = 0;
  override exec(s: string): RegExpExecArray | null {
    this.execs++;
    return super.exec(s);
  }
}

describe('nativeAtFirstUse and nativeWhenAsked', () => {
  it('compile nothing when made, and each pattern natively at the first call only', () => {
    const none = trace('void native, nativeAtFirstUse, nativeWhenAsked;');
    const made = trace(
      'const a = /cuDNN error: (\\w+)/; const p = nativeAtFirstUse(a); const g = nativeWhenAsked(/Xid (\\d+)/);',
    );
    // made and never called: no pattern compiled (a module that makes them pays nothing until a line needs them)
    expect(bytecodes(made)).toBe(bytecodes(none));
    expect(machineCodes(made)).toBe(machineCodes(none));
    const used = trace(
      'const a = /cuDNN error: (\\w+)/; const p = nativeAtFirstUse(a); const g = nativeWhenAsked(/Xid (\\d+)/);' +
        ' p(); p(); a.exec("x"); a.exec("y"); g().exec("x"); g().exec("y");',
    );
    // called: both patterns in machine code once, never in bytecode
    expect(bytecodes(used)).toBe(bytecodes(none));
    expect(machineCodes(used)).toBe(machineCodes(none) + 2);
  });

  it('prime once, leave a global pattern at lastIndex 0, and hand back the same pattern', () => {
    const a = new Counted('cud(?:a|nn)', 'g');
    const b = new Counted('Xid (\\d+)');
    const prime = nativeAtFirstUse(a, b);
    expect([a.execs, b.execs]).toEqual([0, 0]);
    prime();
    prime();
    expect([a.execs, b.execs]).toEqual([1, 1]);
    expect(a.lastIndex).toBe(0);
    expect([...'cuda cudnn'.matchAll(a)].map((m) => m[0])).toEqual(['cuda', 'cudnn']);
    const c = new Counted('Xid (\\d+)');
    const get = nativeWhenAsked(c);
    expect(c.execs).toBe(0);
    expect(get()).toBe(c);
    expect(get().exec('NVRM: Xid 79')?.[1]).toBe('79');
    expect(c.execs).toBe(2);
  });
});
