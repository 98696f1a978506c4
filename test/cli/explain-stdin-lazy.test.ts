// explain asks about standard input only when it may read it: with log files named, process.stdin (a stream that
// costs ~2 ms to build at start) is never touched; with none, or with `-`, it is read as before.
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createContext } from '../../src/cli/real-context.js';
import { setLang } from '../../src/base/i18n/index.js';

const LOG = path.resolve(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt');
const OOM = 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n';

async function explain(argv: string[], input: string): Promise<{ code: number; stdout: string; asked: number }> {
  let stdout = '';
  let asked = 0;
  const ctx = {
    ...createContext(argv),
    stdout: { write: (s: string) => void (stdout += s), isTTY: false },
    stderr: { write: () => undefined, isTTY: false },
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    color: false,
  };
  Object.defineProperty(ctx, 'stdin', {
    get() {
      asked += 1;
      return Readable.from([Buffer.from(input)]);
    },
  });
  const code = await main(argv, ctx);
  setLang('en');
  return { code, stdout, asked };
}

describe('explain and standard input', () => {
  it('a log file named: standard input is never asked about', async () => {
    const r = await explain(['explain', LOG, '--no-machine', '--json'], OOM);
    expect(r.asked).toBe(0);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).input.bytes).toBeGreaterThan(1000);
  });

  it('no log named: a piped standard input is the log', async () => {
    const r = await explain(['explain', '--no-machine', '--json'], OOM);
    expect(r.asked).toBeGreaterThan(0);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).input.bytes).toBe(Buffer.byteLength(OOM));
  });

  it('`-` beside a file: standard input is read as well', async () => {
    const r = await explain(['explain', LOG, '-', '--no-machine', '--json'], OOM);
    expect(r.asked).toBeGreaterThan(0);
    const bytes = JSON.parse(r.stdout).input.bytes as number;
    const alone = JSON.parse((await explain(['explain', LOG, '--no-machine', '--json'], '')).stdout).input.bytes;
    expect(bytes).toBe(alone + Buffer.byteLength(OOM));
  });
});
