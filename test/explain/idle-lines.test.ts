// Lines of no use remembered (src/judge/explain/collect.ts Collector.idle): a line that gave no environment fact to
// look for, no framework cue and no signature match is, when its raw text comes again and no match is open, neither
// normalised nor read again. That must change nothing: every fixture log, read once and read twice in a row (so
// that its lines come again), gives the same diagnosis with and without it; an open match still takes a remembered
// line as its continuation; and a training log's repeated warning is normalised once per text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Collector } from '../../src/judge/explain/collect.js';
import { diagnose } from '../../src/judge/explain/diagnose.js';
import { LineScanner } from '../../src/judge/explain/read/scan.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');

/** the diagnosis of `text`, read with or without the remembered lines, as JSON */
function read(text: string, remember: boolean): string {
  const col = new Collector(undefined, undefined, remember);
  const scan = new LineScanner(registry().anchors, (l) => col.onLine(l));
  scan.push(text);
  scan.end();
  return JSON.stringify(
    diagnose({ collector: col, bytes: Buffer.byteLength(text), truncatedLines: scan.truncatedLines, sources: ['t'] }),
  );
}

function fixtureLogs(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(txt|log)$/.test(e.name) && fs.statSync(p).size < 2_000_000)
        out.push([path.relative(repo, p), fs.readFileSync(p, 'utf8')]);
    }
  };
  walk(path.join(repo, 'test/fixtures'));
  return out;
}

const originalExec = RegExp.prototype.exec;
afterEach(() => {
  RegExp.prototype.exec = originalExec;
});

describe('lines of no use, remembered', () => {
  it('every fixture log, once and twice in a row: the same diagnosis with and without', () => {
    const logs = fixtureLogs();
    expect(logs.length).toBeGreaterThan(50);
    for (const [name, text] of logs) {
      const twice = `${text}${text.endsWith('\n') ? '' : '\n'}${text}`;
      for (const t of [text, twice]) expect(read(t, true), name).toBe(read(t, false));
    }
  });

  it('an open match takes a remembered line as its continuation', () => {
    const warning = '(pid=7) WARNING: data loader slow (process memory 3.2 GiB)';
    const text = [
      warning,
      'RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 39.56',
      warning,
      'GiB total capacity; 37.88 GiB already allocated; 32.56 MiB free)',
    ].join('\n');
    const withIt = read(text, true);
    expect(withIt).toBe(read(text, false));
    // the warning (without its launcher prefix) is in the message's text: it was joined to it, and so was the line
    // after
    expect(withIt).toMatch(/39\.56 WARNING: data loader slow \(process memory 3\.2 GiB\) GiB total capacity/);
  });

  it('a line that gave a framework cue or was read for facts is read again when it comes again', () => {
    // TensorFlow's cue twice (2 + 2) outweighs PyTorch's once (2.5): the second time counts
    const text = [
      'loading tensorflow plugin',
      'loading tensorflow plugin',
      'loading torch plugin',
      'CUDA error: out of memory',
    ];
    const withIt = read(`${text.join('\n')}\n`, true);
    expect(withIt).toBe(read(`${text.join('\n')}\n`, false));
    expect(JSON.parse(withIt).environment.framework.value).toBe('tensorflow');
  });

  it("a training log's repeated warnings are normalised once per text", () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push(`[rank${i % 4}]: Epoch 0 step ${i} loss=0.25 lr=3.0e-4`);
      if (i % 10 === 7)
        lines.push(`(pid=${1000 + (Math.floor(i / 10) % 4)}) WARNING: worker slow (process memory 3.2 GiB)`);
    }
    lines.push('RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.90 GiB total capacity)');
    const text = `${lines.join('\n')}\n`;
    // normaliseLine's control-character test runs once per line it normalises
    const normalised = (remember: boolean) => {
      let n = 0;
      RegExp.prototype.exec = function (this: RegExp, s: string) {
        if (this.source === '[\\x00-\\x08\\x0b-\\x1f\\x7f\\ufffd]') n++;
        return originalExec.call(this, s);
      };
      try {
        read(text, remember);
      } finally {
        RegExp.prototype.exec = originalExec;
      }
      return n;
    };
    // 40 warnings, 4 texts, and the out-of-memory line
    expect(normalised(false)).toBe(41);
    expect(normalised(true)).toBe(5);
    expect(read(text, true)).toBe(read(text, false));
  });
});
