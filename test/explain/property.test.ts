// Whatever the bytes, explain returns a well-formed diagnosis: random bytes, invalid UTF-8, huge lines,
// lines built from the signatures' own vocabulary, and any chunking of the same input.
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { explainStream, explainText } from '../../src/judge/explain/engine.js';
import { ROOT_CAUSES } from '../../src/knowledge/root-causes.js';

function wellFormed(d: Awaited<ReturnType<typeof explainStream>>): void {
  expect(d.schemaVersion).toBe(1);
  let prev = Infinity;
  for (const c of d.causes) {
    expect(ROOT_CAUSES).toContain(c.id);
    expect(c.confidence).toBeGreaterThanOrEqual(0);
    expect(c.confidence).toBeLessThanOrEqual(1);
    // the contract's order: by confidence, highest first (evidence may rank a cause of smaller weight first)
    expect(c.confidence).toBeLessThanOrEqual(prev);
    prev = c.confidence;
    expect(typeof c.fix.text).toBe('string');
  }
  expect(() => JSON.stringify(d)).not.toThrow();
}

const WORDS = [
  'CUDA',
  'out of memory',
  'Tried to allocate',
  'GiB',
  'MiB',
  'cuDNN',
  'CUDNN_STATUS_INTERNAL_ERROR',
  'Loaded runtime CuDNN library:',
  'but source was compiled with:',
  'sm_86',
  'Process',
  'has',
  'memory in use',
  'libcudnn.so.8',
  'cannot open shared object file',
  'driver',
  'found version',
  '(',
  ')',
  ':',
  '\r',
  '\n',
  '\x1b[31m',
  '[rank0]:',
  '0',
  '8.0.5',
  '1.5',
  '—',
  '\ufffd',
  'GPU 0',
];

describe('robustness', () => {
  it('random bytes never crash it, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), fc.integer({ min: 1, max: 64 }), async (bytes, size) => {
        const chunks: Buffer[] = [];
        for (let i = 0; i < bytes.length; i += size) chunks.push(Buffer.from(bytes.subarray(i, i + size)));
        wellFormed(await explainStream(Readable.from(chunks)));
      }),
      { numRuns: 150 },
    );
  });

  it("text made of the signatures' vocabulary never crashes it, and chunking does not change the result", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...WORDS), { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        async (parts, size) => {
          const text = parts.join(' ');
          const whole = explainText(text);
          wellFormed(whole);
          const b = Buffer.from(text);
          const chunks: Buffer[] = [];
          for (let i = 0; i < b.length; i += size) chunks.push(b.subarray(i, i + size));
          const streamed = await explainStream(Readable.from(chunks));
          expect(streamed.causes.map((c) => c.id)).toEqual(whole.causes.map((c) => c.id));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('huge single lines and invalid UTF-8 never crash it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('x', '-', ' ', 'a b ', '\xff', 'CUDA out of memory. ', '| '),
        fc.integer({ min: 1, max: 300_000 }),
        (unit, n) => {
          wellFormed(explainText(unit.repeat(Math.ceil(n / unit.length))));
        },
      ),
      { numRuns: 40 },
    );
    const invalid = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0x0a]);
    return explainStream(Readable.from([Buffer.concat(Array(1000).fill(invalid))])).then(wellFormed);
  });
});
