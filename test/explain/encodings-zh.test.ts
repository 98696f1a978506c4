// A Chinese-phrased Windows log in the three encodings Windows writes (GBK from cmd, UTF-16LE from PowerShell 5,
// UTF-8): the same lines, the same facts, the same diagnosis. GBK is decided at the first non-ASCII chunk, so a
// long ASCII head does not hide it; a UTF-8 log with a stray invalid byte stays UTF-8.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainStream } from '../../src/judge/explain/engine.js';
import { LineScanner, utf8OrGb18030, type Line } from '../../src/judge/explain/read/scan.js';
import { runCli } from '../helpers/cli.js';

const DIR = path.resolve(__dirname, '../fixtures/logs-zh');
const FILES = ['gbk-windows-tf.log', 'utf16-powershell-tf.log', 'utf8-tf.log'];

function lines(chunks: Uint8Array[]): string[] {
  const out: Line[] = [];
  // every line (no prefilter): the decoding is what is tested here
  const s = new LineScanner(null, (l: Line) => out.push(l));
  for (const c of chunks) s.push(c);
  s.end();
  return out.map((l) => l.text);
}

describe('GBK, UTF-16LE and UTF-8 read as the same text', () => {
  const utf8 = lines([fs.readFileSync(path.join(DIR, 'utf8-tf.log'))]);
  it.each(FILES)('%s', (f) => {
    const bytes = fs.readFileSync(path.join(DIR, f));
    expect(lines([bytes])).toEqual(utf8);
    // in small chunks: characters cut between chunks
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    expect(lines(chunks)).toEqual(utf8);
    expect(utf8).toContain('显卡：RTX 3060 6G，CUDA 11.2，cuDNN 8.1');
  });
  it('GBK after 100 kB of ASCII lines is still GBK', () => {
    const head = Buffer.from('step 1 loss 0.5\n'.repeat(7000));
    const gbk = fs.readFileSync(path.join(DIR, 'gbk-windows-tf.log'));
    const got = lines([head.subarray(0, 65536), head.subarray(65536), gbk]);
    expect(got).toContain('系统：Windows 10');
  });
  it('a UTF-8 log with one stray byte stays UTF-8; bytes that are neither read leniently', () => {
    expect(
      utf8OrGb18030(Buffer.concat([Buffer.from('显卡：RTX 3060\n'), Buffer.from([0xff]), Buffer.from('ok\n')])),
    ).toBe('utf-8');
    expect(utf8OrGb18030(Buffer.from([0x41, 0xff, 0xff, 0x42]))).toBe('utf-8');
    expect(utf8OrGb18030(Buffer.from('系统：Windows 10', 'utf8'))).toBe('utf-8');
    expect(utf8OrGb18030(fs.readFileSync(path.join(DIR, 'gbk-windows-tf.log')))).toBe('gb18030');
  });
});

describe('explain reads the Chinese lines in every encoding', () => {
  it.each(FILES)('%s: facts, Windows, and fixes for cmd and PowerShell', async (f) => {
    const d = await explainStream([{ name: f, chunks: [fs.readFileSync(path.join(DIR, f))] }]);
    const e = d.environment;
    expect(e.gpus[0]).toMatchObject({ name: 'RTX 3060 6G', totalMiB: 6144 });
    expect([e.cuda?.value, e.cudnn?.value, e.driver?.value, e.frameworkVersion?.value, e.python?.value]).toEqual([
      '11.2',
      '8.1',
      '472.12',
      '2.6.0',
      '3.8',
    ]);
    expect(e.os?.value).toMatch(/^Windows/);
    const commands = d.causes.flatMap((c) => c.fix.commands);
    expect(commands).toContain('set TF_FORCE_GPU_ALLOW_GROWTH=true');
    expect(commands).toContain('$env:TF_FORCE_GPU_ALLOW_GROWTH="true"');
    expect(commands.join('\n')).not.toMatch(/tensorflow\[and-cuda\]|\bldconfig\b|^kill /m);
  });
  it('the built CLI on the GBK file (as a user runs it), -v shows the facts read', () => {
    const r = runCli(['explain', path.join(DIR, 'gbk-windows-tf.log'), '--no-machine', '-v']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('$ set TF_FORCE_GPU_ALLOW_GROWTH=true');
    expect(r.stdout).toMatch(/RTX 3060 6G/);
    expect(r.stdout).not.toContain('\ufffd');
  });
});
