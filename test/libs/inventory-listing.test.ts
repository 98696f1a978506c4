// The inventory takes a regular file's real path from its folder's listing (the folder's real path and the name)
// rather than resolving each file's path: the same copies, links and real paths as resolving every entry gives,
// for files in a folder reached through a link, links to files, links to links, dangling links and loops, under
// the real root and under --root.
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem, type FileSystem } from '../../src/ports/fs.js';
import { buildInventory, type Inventory } from '../../src/gather/libraries/inventory.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib } from './build.js';

let R = '';

/** The filesystem with its listings' entry types hidden (every entry 'other'): each file's path is resolved. */
function typesHidden(real: FileSystem): FileSystem {
  return {
    ...real,
    readdir: (p) => real.readdir(p).map((e) => ({ name: e.name, type: e.type === 'dir' ? 'dir' : 'other' })),
  };
}

/** `realpath` calls counted. */
function counted(real: FileSystem): { fsys: FileSystem; n: { realpath: number } } {
  const n = { realpath: 0 };
  return {
    fsys: {
      ...real,
      realpath: (p) => {
        n.realpath++;
        return real.realpath(p);
      },
    },
    n,
  };
}

function inventory(fsys: FileSystem, base: string): Inventory['copies'] {
  return buildInventory({
    fs: fsys,
    cache: null,
    ldLibraryPath: [`${base}/opt/abs`, `${base}/opt/x/lib64`, `${base}/opt/x/lib`, `${base}/opt/y`],
    defaultDirs: [],
    environments: [],
  }).copies;
}

beforeAll(() => {
  R = tempDir('ged-inv-');
  // a library and its soname link; the folder also reached as lib64 (a link to lib)
  buildLib(R, {
    file: 'opt/x/lib/libcudart.so.13.0.96',
    soname: 'libcudart.so.13',
    links: ['opt/x/lib/libcudart.so.13'],
  });
  fs.symlinkSync('lib', `${R}/opt/x/lib64`);
  for (const f of ['libnvrtc.so.13.0.88', 'libcufft.so.12.0.0.61', 'libcurand.so.10.4.0.35'])
    fs.copyFileSync(`${R}/opt/x/lib/libcudart.so.13.0.96`, `${R}/opt/x/lib/${f}`);
  // in another folder: a link to the file, a link to that link, a dangling link, a loop, a plain copy
  fs.mkdirSync(`${R}/opt/y`);
  fs.symlinkSync('../x/lib/libcudart.so.13', `${R}/opt/y/libcudart.so`);
  fs.symlinkSync('libcudart.so', `${R}/opt/y/libcudart.so.99`);
  fs.symlinkSync('libcudnn.so.9.9.9', `${R}/opt/y/libcudnn.so.9`);
  fs.symlinkSync('libcublas.so.13', `${R}/opt/y/libcublas.so.13`);
  fs.copyFileSync(`${R}/opt/x/lib/libcudart.so.13.0.96`, `${R}/opt/y/libcudart.so.12.8.0`);
  // links inside one folder: a chain of two to the file, and a loop between two names
  fs.symlinkSync('libcudart.so.13', `${R}/opt/x/lib/libcudart.so`);
  fs.symlinkSync('libcufft.so.2', `${R}/opt/y/libcufft.so.1`);
  fs.symlinkSync('libcufft.so.1', `${R}/opt/y/libcufft.so.2`);
  // a folder reached through an absolute link: inside the tree under --root, nowhere on the real root
  fs.symlinkSync('/opt/x/lib', `${R}/opt/abs`);
}, 60_000);
afterAll(() => fs.rmSync(R, { recursive: true, force: true }));

describe('the inventory from folder listings', () => {
  it('under the real root: the same copies as resolving every entry, with fewer resolutions', () => {
    const real = createFileSystem('/').session!();
    const listed = counted(real);
    const copies = inventory(listed.fsys, R);
    const resolved = counted(typesHidden(createFileSystem('/').session!()));
    expect(copies).toEqual(inventory(resolved.fsys, R));
    expect(listed.n.realpath).toBeLessThan(resolved.n.realpath);
    const rp = fs.realpathSync(R);
    // (the machine's own toolkits are scanned too: only the tree's copies are looked at)
    expect(copies.map((c) => c.path).filter((p) => p.startsWith(`${rp}/`))).toEqual(
      [
        'x/lib/libcudart.so.13.0.96',
        'x/lib/libcufft.so.12.0.0.61',
        'x/lib/libcurand.so.10.4.0.35',
        'x/lib/libnvrtc.so.13.0.88',
        'y/libcudart.so.12.8.0',
      ].map((f) => `${rp}/opt/${f}`),
    );
    expect(copies.find((c) => c.path === `${rp}/opt/x/lib/libcudart.so.13.0.96`)!.links).toEqual(
      [
        `${R}/opt/x/lib/libcudart.so`,
        `${R}/opt/x/lib/libcudart.so.13`,
        `${R}/opt/x/lib/libcudart.so.13.0.96`,
        `${R}/opt/x/lib64/libcudart.so`,
        `${R}/opt/x/lib64/libcudart.so.13`,
        `${R}/opt/x/lib64/libcudart.so.13.0.96`,
        `${R}/opt/y/libcudart.so`,
        `${R}/opt/y/libcudart.so.99`,
      ].sort(),
    );
  });

  it('under --root: the same', () => {
    const copies = inventory(createFileSystem(R).session!(), '');
    expect(copies).toEqual(inventory(typesHidden(createFileSystem(R).session!()), ''));
    expect(copies.map((c) => c.path)).toContain('/opt/y/libcudart.so.12.8.0');
    expect(copies).toHaveLength(5);
    // the folder reached through the absolute link is the tree's /opt/x/lib
    const cudart = copies.find((c) => c.path === '/opt/x/lib/libcudart.so.13.0.96')!;
    expect(cudart.links).toContain('/opt/abs/libcudart.so');
    expect(cudart.links).toContain('/opt/abs/libcudart.so.13.0.96');
    expect(copies[0]!.soname).toBe('libcudart.so.13');
  });
});
