import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../src/act/run/tail.js';

describe('OutputTail (the bounded ring buffer of a job output)', () => {
  it('keeps only the last maxLines lines, numbered in the whole output', () => {
    const t = new OutputTail({ maxLines: 10 });
    for (let i = 1; i <= 1000; i++) t.push('stdout', `line ${i}\n`);
    const lines = t.lines();
    expect(lines).toHaveLength(10);
    expect(lines[0]).toEqual({ n: 991, stream: 'stdout', text: 'line 991' });
    expect(lines[9]!.text).toBe('line 1000');
    expect(t.totalLines).toBe(1000);
    expect(t.droppedLines).toBe(990);
  });

  it('bounds the bytes kept, dropping the oldest lines first', () => {
    const t = new OutputTail({ maxLines: 1000, maxBytes: 1000, maxLineChars: 200 });
    for (let i = 0; i < 100; i++) t.push('stderr', `${String(i).padStart(3, '0')}${'x'.repeat(97)}\n`);
    const kept = t.lines();
    expect(kept.reduce((a, l) => a + l.text.length, 0)).toBeLessThanOrEqual(1000);
    expect(kept.at(-1)!.text.startsWith('099')).toBe(true);
    expect(kept.length).toBe(10);
  });

  it('joins lines split across chunks and keeps stdout and stderr apart while interleaving them', () => {
    const t = new OutputTail();
    t.push('stdout', 'hel');
    t.push('stderr', 'Trace');
    t.push('stdout', 'lo\nwor');
    t.push('stderr', 'back\n');
    t.push('stdout', 'ld');
    t.end();
    expect(t.lines().map((l) => `${l.stream}:${l.text}`)).toEqual(['stdout:hello', 'stderr:Traceback', 'stdout:world']);
  });

  it('decodes UTF-8 characters split between chunks', () => {
    const t = new OutputTail();
    const bytes = Buffer.from('GPU ✗ 139.8 GiB\n');
    t.push('stdout', bytes.subarray(0, 5));
    t.push('stdout', bytes.subarray(5));
    expect(t.lines()[0]!.text).toBe('GPU ✗ 139.8 GiB');
  });

  it('keeps what a terminal finally shows of a progress bar redrawn with carriage returns', () => {
    const t = new OutputTail();
    t.push('stderr', ' 10%|#  |\r 50%|## |\r100%|###|\r\n');
    expect(t.lines()[0]!.text).toBe('100%|###|');
  });

  it('cuts a line that never ends (a progress bar without newline) to a bounded size', () => {
    const t = new OutputTail({ maxLineChars: 100 });
    for (let i = 0; i < 10000; i++) t.push('stdout', 'x'.repeat(100));
    t.end();
    const [only] = t.lines();
    expect(only!.text.length).toBeLessThan(200);
    expect(only!.text).toContain('more characters');
  });

  it('tells watchers about each complete line as it arrives', () => {
    const t = new OutputTail();
    const seen: string[] = [];
    t.onLine((l) => seen.push(`${l.n}:${l.text}`));
    t.push('stderr', 'a\nRuntimeError: CUDA out of memory.');
    expect(seen).toEqual(['1:a']);
    t.push('stderr', '\n');
    expect(seen).toEqual(['1:a', '2:RuntimeError: CUDA out of memory.']);
  });
});
