// Reading raw logs: lenient decoding, progress bars, line ends split across chunks, huge lines,
// colour codes and multi-process prefixes.
import { describe, expect, it } from 'vitest';
import { AnchorSet } from '../../src/judge/explain/read/anchors.js';
import { LineScanner, type Line } from '../../src/judge/explain/read/scan.js';
import { normaliseLine } from '../../src/judge/explain/read/normalise.js';

function split(chunks: Array<string | Uint8Array>, max?: number, anchors: AnchorSet | null = null): Line[] {
  const out: Line[] = [];
  const s = new LineScanner(anchors, (l) => out.push(l), max);
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}
const texts = (chunks: Array<string | Uint8Array>, max?: number) => split(chunks, max).map((l) => l.text);

describe('LineScanner', () => {
  it('keeps the last segment of a \\r progress bar, and treats \\r\\n as a line end', () => {
    expect(texts(['Epoch 1:  10%|█ |\rEpoch 1:  50%|█████ |\rEpoch 1: 100%|██████████|\nnext\r\nlast'])).toEqual([
      'Epoch 1: 100%|██████████|',
      'next',
      'last',
    ]);
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
    const b = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('RuntimeError: No CUDA GPUs are available\r\n', 'utf16le'),
    ]);
    expect(texts([b])).toEqual(['RuntimeError: No CUDA GPUs are available']);
  });

  it('cuts a huge line at the limit and counts it, without keeping the rest', () => {
    const lines = split(['x'.repeat(100_000), 'y'.repeat(100_000), '\nshort\n'], 1000);
    expect(lines[0]!.text.length).toBe(1000);
    expect(lines[0]!.truncated).toBe(true);
    expect(lines[1]).toEqual({ no: 2, text: 'short', truncated: false });
  });

  it('numbers lines from 1, including empty ones, and keeps a last line without newline', () => {
    expect(split(['a\n\nb']).map((l) => [l.no, l.text])).toEqual([
      [1, 'a'],
      [2, ''],
      [3, 'b'],
    ]);
  });
});

describe('the literal prefilter', () => {
  const anchors = new AnchorSet(['cuda', 'gpu', 'cudnn_status', '显卡']);

  it('hands on only the lines holding an anchor, in any case, with their real numbers', () => {
    const lines = split(
      ['epoch 1 loss 0.3\nUsing CUDA device 0\nstep 2\r\nno GPU here\nCUDNN_STATUS_INTERNAL_ERROR\n'],
      undefined,
      anchors,
    );
    expect(lines.map((l) => [l.no, l.text])).toEqual([
      [2, 'Using CUDA device 0'],
      [4, 'no GPU here'],
      [5, 'CUDNN_STATUS_INTERNAL_ERROR'],
    ]);
  });

  it('counts every line, also those it skips, across chunks that split lines and anchors', () => {
    const text = 'a\nb\nRuntimeError: CUDA error\nc\n';
    for (let size = 1; size <= text.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      const out: Line[] = [];
      const s = new LineScanner(anchors, (l) => out.push(l));
      for (const c of chunks) s.push(c);
      s.end();
      expect(out.map((l) => l.no)).toEqual([3]);
      expect(s.lines).toBe(4);
    }
  });

  it('finds overlapping anchors and non-ASCII ones', () => {
    const set = new AnchorSet(['cud', 'dnn', 'cudnn', '显卡']);
    expect(set.idsIn('libcudnn.so.8').sort()).toEqual([set.idOf('cud'), set.idOf('dnn'), set.idOf('cudnn')].sort());
    expect(set.idsIn('显卡: RTX 3090')).toEqual([set.idOf('显卡')]);
    expect(split([Buffer.from('x\n显卡: RTX 3090\n')], undefined, set).map((l) => l.text)).toEqual(['显卡: RTX 3090']);
  });

  it('counts long lines it skips as truncated, like those it reads', () => {
    const s = new LineScanner(anchors, () => undefined, 100);
    s.push(`${'x'.repeat(500)}\nshort\n${'y'.repeat(50)}\n`);
    s.end();
    expect(s.truncatedLines).toBe(1);
  });

  it('finds an anchor in any case where two 64 KiB scan windows meet, in the head and after it', () => {
    // the windows are lower-cased and searched case-sensitively: an upper-case anchor across an edge is still one
    // (a window that is not ASCII, here with a progress bar's █ on the line, is searched with the i flag instead)
    for (const at of [65536, 1024 * 1024 + 3 * 65536]) {
      for (const bar of ['', '█']) {
        // the next line starts 2 bytes before the edge
        const filler = `${'z'.repeat(at - 3)}\n`;
        const lines = split([filler, `xGPU-Util 0%${bar}\nstep\n`], 1 << 30, anchors);
        expect(lines.map((l) => [l.no, l.text])).toEqual([[2, `xGPU-Util 0%${bar}`]]);
      }
    }
  });

  it('does not take a byte whose high bit is set for the ASCII letter it masks to', () => {
    // non-ASCII windows are searched with each byte's high bit cleared: 0xE7 (ç) becomes "g", so "\xE7pu" looks
    // like "gpu" until the real bytes are checked
    const lines = split(
      [Buffer.from('x\n'), Buffer.from([0xe7, 0x70, 0x75, 0x0a]), Buffer.from('GPU 0 █\n')],
      undefined,
      anchors,
    );
    expect(lines.map((l) => [l.no, l.text])).toEqual([[3, 'GPU 0 █']]);
  });

  it('rejects anchors shorter than three bytes', () => {
    expect(() => new AnchorSet(['os'])).toThrow(/shorter/);
  });
});

describe('normaliseLine', () => {
  it('strips ANSI colours and control characters', () => {
    expect(normaliseLine('\x1b[31mRuntimeError\x1b[0m: CUDA\x00 error')).toBe('RuntimeError: CUDA  error');
  });

  it('strips multi-process prefixes', () => {
    expect(normaliseLine('[rank0]: torch.OutOfMemoryError: CUDA out of memory.')).toBe(
      'torch.OutOfMemoryError: CUDA out of memory.',
    );
    expect(normaliseLine('(RayTrainWorker pid=1234, ip=10.0.0.2) RuntimeError: x')).toBe('RuntimeError: x');
    expect(normaliseLine('(pid=123) [default3]:Traceback')).toBe('Traceback');
    expect(normaliseLine('[1,0]<stderr>:No CUDA GPUs are available')).toBe('No CUDA GPUs are available');
  });

  it('leaves ordinary lines alone', () => {
    const l = 'E1202 09:42:05.337998    1069 cuda_executor.cc:1365] [0] Failed to allocate device memory';
    expect(normaliseLine(l)).toBe(l);
  });
});
