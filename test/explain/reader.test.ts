// Reading raw logs: lenient decoding, progress bars, line ends split across chunks, huge lines,
// colour codes and multi-process prefixes.
import { describe, expect, it } from 'vitest';
import { LineSplitter, type Line } from '../../src/explain/read/lines.js';
import { normaliseLine } from '../../src/explain/read/normalise.js';

function split(chunks: Array<string | Uint8Array>, max?: number): Line[] {
  const out: Line[] = [];
  const s = new LineSplitter((l) => out.push(l), max);
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}
const texts = (chunks: Array<string | Uint8Array>, max?: number) => split(chunks, max).map((l) => l.text);

describe('LineSplitter', () => {
  it('keeps the last segment of a \\r progress bar, and treats \\r\\n as a line end', () => {
    expect(texts(['Epoch 1:  10%|█ |\rEpoch 1:  50%|█████ |\rEpoch 1: 100%|██████████|\nnext\r\nlast'])).toEqual(['Epoch 1: 100%|██████████|', 'next', 'last']);
  });

  it('handles \\r\\n split across chunks', () => {
    expect(texts(['one\r', '\ntwo\r', '\n'])).toEqual(['one', 'two']);
  });

  it('keeps the last non-blank segment when a bar is cleared with spaces', () => {
    expect(texts(['loading 99%\r          \n'])).toEqual(['loading 99%']);
  });

  it('decodes invalid UTF-8 leniently and multi-byte characters split across chunks', () => {
    const euro = Buffer.from('€ ok\n');
    expect(texts([euro.subarray(0, 1), euro.subarray(1)])).toEqual(['€ ok']);
    expect(texts([Buffer.from([0xff, 0xfe, 0x41])])[0]).not.toBe(''); // a UTF-16 BOM: read as UTF-16LE
    expect(texts([Buffer.from([0x41, 0xc3, 0x28, 0x42, 0x0a])])).toEqual(['A\ufffd(B']);
  });

  it('reads UTF-16LE with a BOM (PowerShell redirection)', () => {
    const b = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('RuntimeError: No CUDA GPUs are available\r\n', 'utf16le')]);
    expect(texts([b])).toEqual(['RuntimeError: No CUDA GPUs are available']);
  });

  it('cuts a huge line at the limit and counts it, without keeping the rest', () => {
    const lines = split(['x'.repeat(100_000), 'y'.repeat(100_000), '\nshort\n'], 1000);
    expect(lines[0]!.text.length).toBe(1000);
    expect(lines[0]!.truncated).toBe(true);
    expect(lines[1]).toEqual({ no: 2, text: 'short', truncated: false });
  });

  it('numbers lines from 1, including empty ones, and keeps a last line without newline', () => {
    expect(split(['a\n\nb']).map((l) => [l.no, l.text])).toEqual([[1, 'a'], [2, ''], [3, 'b']]);
  });
});

describe('normaliseLine', () => {
  it('strips ANSI colours and control characters', () => {
    expect(normaliseLine('\x1b[31mRuntimeError\x1b[0m: CUDA\x00 error')).toBe('RuntimeError: CUDA  error');
  });

  it('strips multi-process prefixes', () => {
    expect(normaliseLine('[rank0]: torch.OutOfMemoryError: CUDA out of memory.')).toBe('torch.OutOfMemoryError: CUDA out of memory.');
    expect(normaliseLine('(RayTrainWorker pid=1234, ip=10.0.0.2) RuntimeError: x')).toBe('RuntimeError: x');
    expect(normaliseLine('(pid=123) [default3]:Traceback')).toBe('Traceback');
    expect(normaliseLine('[1,0]<stderr>:No CUDA GPUs are available')).toBe('No CUDA GPUs are available');
  });

  it('leaves ordinary lines alone', () => {
    const l = 'E1202 09:42:05.337998    1069 cuda_executor.cc:1365] [0] Failed to allocate device memory';
    expect(normaliseLine(l)).toBe(l);
  });
});
