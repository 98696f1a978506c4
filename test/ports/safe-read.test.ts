// Reading a file once, on its descriptor: the text variant (fleet's reads) reuses one buffer between files, stops at
// the size fstat gave, and refuses what is past the limit exactly as the byte variant does.
import * as fs from 'node:fs';
import fsModule from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularText } from '../../src/ports/safe-read.js';
import { tempDir } from '../helpers/fake-bin.js';

const IDLE = fs.readFileSync(path.resolve(__dirname, '../../examples/snapshots/h200-idle.json'), 'utf8');
const opts = { maxBytes: 64 * 1024 * 1024, noFollow: true };

function write(dir: string, name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

describe('readRegularText', () => {
  it('reads each file whole, whatever the files read before it left in the shared buffer', () => {
    const dir = tempDir('ged-safe-read-');
    // a real snapshot, then a shorter file, then one past the kept buffer (1 MiB), then a short one again
    const files = [
      write(dir, 'idle.json', IDLE),
      write(dir, 'short.json', '{"a":1}'),
      write(dir, 'large.json', `"${'é'.repeat(700_000)}"`),
      write(dir, 'tiny.json', '[]'),
      write(dir, 'accents.json', '{"host":"nœud-03 ñ 中文"}'),
      write(dir, 'empty.json', ''),
    ];
    for (const f of files) {
      const r = readRegularText(f, opts);
      const want = fs.readFileSync(f);
      expect(r).toMatchObject({ kind: 'file', text: want.toString('utf8'), bytes: want.length, size: want.length });
    }
  });

  it('refuses what is not a regular file inside its limit, and decodes invalid UTF-8 as Buffer does', () => {
    const dir = tempDir('ged-safe-read-');
    const bad = write(dir, 'bad.json', Buffer.from([0x7b, 0xff, 0xc3, 0x28, 0x7d])); // invalid UTF-8 in the middle
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(bad, link);
    expect(readRegularText(bad, opts)).toMatchObject({ kind: 'file', text: fs.readFileSync(bad).toString('utf8') });
    expect(readRegularText(link, opts)).toEqual({ kind: 'link' });
    expect(readRegularText(link, { ...opts, noFollow: false })).toMatchObject({ kind: 'file', bytes: 5 });
    expect(readRegularText(dir, opts)).toEqual({ kind: 'notFile' });
    expect(readRegularText(path.join(dir, 'missing.json'), opts)).toEqual({ kind: 'error', code: 'ENOENT' });
    expect(readRegularText(bad, { ...opts, maxBytes: 4 })).toEqual({ kind: 'tooLarge' });
  });

  it('reads up to the limit: a file of exactly maxBytes is read, one byte more is too large', () => {
    const dir = tempDir('ged-safe-read-');
    const f = write(dir, 'x.json', '0123456789');
    expect(readRegularText(f, { ...opts, maxBytes: 10 })).toMatchObject({ kind: 'file', text: '0123456789' });
    expect(readRegularText(f, { ...opts, maxBytes: 9 })).toEqual({ kind: 'tooLarge' });
  });

  it.skipIf(!fs.existsSync('/proc/self/status'))(
    'a file with more bytes than fstat said (as one that grows while read) is read to that size and one byte more',
    () => {
      // procfs reports 0 bytes for a file that has hundreds: the read stops at size + 1, never reads on to the end
      expect(fs.fstatSync(fs.openSync('/proc/self/status', 'r')).size).toBe(0);
      expect(readRegularText('/proc/self/status', opts)).toMatchObject({ kind: 'file', text: 'N', bytes: 1 });
      expect(readRegularText('/proc/self/status', { ...opts, maxBytes: 0 })).toEqual({ kind: 'tooLarge' });
    },
  );
});

describe('the reads made', () => {
  const realReadSync = fsModule.readSync;
  afterEach(() => {
    fsModule.readSync = realReadSync;
    syncBuiltinESMExports();
  });

  /** Calls of fs.readSync (the module's import of node:fs sees the replacement through syncBuiltinESMExports). */
  function countingReads(): { n: number } {
    const count = { n: 0 };
    fsModule.readSync = ((...args: Parameters<typeof fs.readSync>) => {
      count.n++;
      return realReadSync(...args);
    }) as typeof fs.readSync;
    syncBuiltinESMExports();
    return count;
  }

  it('a file read whole in one read is not read again for its end', () => {
    const dir = tempDir('ged-safe-read-');
    const f = write(dir, 'idle.json', IDLE);
    const count = countingReads();
    expect(readRegularText(f, opts)).toMatchObject({ kind: 'file', text: IDLE });
    expect(count.n).toBe(1);
    // an empty file: the one read returns 0
    count.n = 0;
    expect(readRegularText(write(dir, 'empty.json', ''), opts)).toMatchObject({ kind: 'file', bytes: 0 });
    expect(count.n).toBe(1);
  });
});
