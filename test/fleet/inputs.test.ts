// Reading a snapshot folder that others write into: a FIFO (planted, or swapped in between the walk and the
// read) never blocks, a link out of the folder is not followed, and no reason quotes the file's content.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInputs, readInput } from '../../src/gather/fleet-inputs.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { FleetWatcher } from '../../src/act/serve/fleet.js';
import { FleetRedactor } from '../../src/report/serve/redact-model.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const IDLE = fs.readFileSync(path.resolve(__dirname, '../../examples/snapshots/h200-idle.json'), 'utf8');
const SECRET = 'root:$6$SECRETHASHVALUE0123:19000:0:99999:7:::';
const fsys = createFileSystem('/');

function mkfifo(p: string): void {
  execFileSync('mkfifo', [p]);
}

/** A folder with one good snapshot and a secret file beside it (outside the folder). */
function setup(): { dir: string; outside: string } {
  const base = tempDir('ged-fleet-in-');
  const dir = path.join(base, 'nodes');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'a.json'), IDLE);
  const outside = path.join(base, 'shadow');
  fs.writeFileSync(outside, SECRET);
  return { dir, outside };
}

describe('fleet inputs: files others can write', () => {
  it('a file swapped for a FIFO after the walk saw it is skipped at once (not a regular file), not waited on', () => {
    const { dir } = setup();
    fs.writeFileSync(path.join(dir, 'x.json'), IDLE);
    const { files, walked } = expandInputs(fsys, '/', [dir]);
    expect(files.map((f) => path.basename(f))).toEqual(['a.json', 'x.json']);
    const x = files.find((f) => f.endsWith('x.json'))!;
    fs.rmSync(x);
    mkfifo(x);
    const t0 = Date.now();
    expect(readInput(fsys, '/', x, walked.get(x))).toEqual({ file: x, problem: 'not a regular file' });
    // a FIFO the user named is not read either
    expect(readInput(fsys, '/', x)).toEqual({ file: x, problem: 'not a regular file' });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('a planted FIFO is not listed; the folder is still read', () => {
    const { dir } = setup();
    mkfifo(path.join(dir, 'f.json'));
    const { files } = expandInputs(fsys, '/', [dir]);
    expect(files.map((f) => path.basename(f))).toEqual(['a.json']);
  });

  it('serve --fleet keeps scanning while another process swaps a FIFO and a file under one name (the race)', async () => {
    const { dir } = setup();
    const fifo = path.join(dir, '.f');
    mkfifo(fifo);
    fs.writeFileSync(path.join(dir, '.r'), IDLE);
    // The swapper of the audit, bounded: it stops by itself after 3 s.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `
      const fs = require('fs'), d = ${JSON.stringify(dir)}, end = Date.now() + 3000;
      while (Date.now() < end) for (const src of ['.f', '.r']) { try { fs.linkSync(d + '/' + src, d + '/.tmp'); fs.renameSync(d + '/.tmp', d + '/x.json'); } catch {} }
    `,
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((r) => swapper.on('exit', r));
    const w = new FleetWatcher({
      fs: fsys,
      cwd: '/',
      dir,
      now: Date.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 600_000,
      onChange: () => undefined,
    });
    let scans = 0;
    const end = Date.now() + 2500;
    try {
      // each scan would block this thread in open(2) for good if a FIFO were opened the blocking way
      while (Date.now() < end) {
        await w.scan();
        scans++;
      }
    } finally {
      swapper.kill();
      await exited;
    }
    expect(scans).toBeGreaterThan(20);
    expect(w.model().machines.length).toBeGreaterThanOrEqual(1);
  }, 15000);

  it('a link to a file outside the folder is not followed and its content never shown; a link inside is', () => {
    const { dir, outside } = setup();
    fs.symlinkSync(outside, path.join(dir, 'x.json'));
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.symlinkSync('../a.json', path.join(dir, 'sub', 'same.json')); // the same machine again: counted once
    fs.copyFileSync(path.join(dir, 'a.json'), path.join(dir, 'b.data'));
    fs.symlinkSync('b.data', path.join(dir, 'c.json'));
    const { files, problems } = expandInputs(fsys, '/', [dir]);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['a.json', 'c.json']);
    expect(problems).toEqual([
      { file: path.join(dir, 'x.json'), reason: 'a link to outside the folder (not followed)' },
    ]);
    const r = runCli(['fleet', dir, '--json']);
    expect(r.stdout).not.toContain('SECRET');
    expect(r.stdout).not.toContain('root:');
    expect(JSON.parse(r.stdout).inputs.skipped).toEqual([
      { file: path.join(dir, 'x.json'), reason: 'a link to outside the folder (not followed)' },
    ]);
  });

  it('a folder inside swapped for a link out of it after the walk is caught on the open descriptor', () => {
    const { dir, outside } = setup();
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'x.json'), IDLE);
    const { files, walked } = expandInputs(fsys, '/', [dir]);
    const x = files.find((f) => f.endsWith('x.json'))!;
    // the walk resolved sub/x.json; now sub becomes a link to a folder holding a secret named x.json
    const elsewhere = path.join(path.dirname(outside), 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.copyFileSync(outside, path.join(elsewhere, 'x.json'));
    fs.rmSync(path.join(dir, 'sub'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(dir, 'sub'));
    expect(readInput(fsys, '/', x, walked.get(x))).toEqual({
      file: x,
      problem: 'a link to outside the folder (not followed)',
    });
  });

  it('a file replaced by another after the walk is read when its name is still inside, refused when not', () => {
    const { dir, outside } = setup();
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'x.json'), IDLE);
    const { files, walked } = expandInputs(fsys, '/', [dir]);
    const x = files.find((f) => f.endsWith('x.json'))!;
    // a node rewrites its snapshot the usual way (a new file renamed over the old one): another file, still inside
    const renamed = JSON.parse(IDLE);
    renamed.host.name = 'rewritten-node';
    fs.writeFileSync(path.join(dir, 'sub', '.x.tmp'), JSON.stringify(renamed));
    fs.renameSync(path.join(dir, 'sub', '.x.tmp'), path.join(dir, 'sub', 'x.json'));
    const got = readInput(fsys, '/', x, walked.get(x));
    expect('snapshot' in got && got.snapshot.host.name).toBe('rewritten-node');
    // the file the walk found is known by its device, inode and birth time: another file there is asked its name
    const w = walked.get(x)!;
    const shadow = fs.statSync(outside);
    const claimed = { dev: shadow.dev, ino: shadow.ino, birthtimeMs: shadow.birthtimeMs + 1 };
    expect(readInput(fsys, '/', x, { ...w, open: outside, found: claimed })).toEqual({
      file: x,
      problem: 'a link to outside the folder (not followed)',
    });
  });

  it('the file the walk found inside is read without asking the kernel its name again', () => {
    const { dir, outside } = setup();
    const { files, walked } = expandInputs(fsys, '/', [dir]);
    const a = files.find((f) => f.endsWith('a.json'))!;
    const w = walked.get(a)!;
    expect(w.found).toEqual({
      dev: fs.statSync(w.open).dev,
      ino: fs.statSync(w.open).ino,
      birthtimeMs: fs.statSync(w.open).birthtimeMs,
    });
    // moved out of the folder since (its folder now a link to where it went): still the file the walk found there
    const moved = path.join(path.dirname(outside), 'moved.json');
    fs.renameSync(w.open, moved);
    const got = readInput(fsys, '/', a, { ...w, open: moved });
    expect('snapshot' in got).toBe(true);
  });

  it('a file that is not JSON or not a snapshot is skipped without quoting its content', () => {
    const { dir } = setup();
    fs.writeFileSync(path.join(dir, 'token.json'), 'hf_TOKENVALUE0123456789');
    fs.writeFileSync(path.join(dir, 'enum.json'), JSON.stringify({ schemaVersion: 'SECRETVALUE42' }));
    const { files, walked } = expandInputs(fsys, '/', [dir]);
    const got = files.map((f) => readInput(fsys, '/', f, walked.get(f))).filter((x) => 'problem' in x);
    expect(got.map((x) => path.basename(x.file))).toEqual(['enum.json', 'token.json']);
    const reasons = got.map((x) => ('problem' in x ? x.problem : ''));
    expect(reasons[1]).toBe('is not JSON');
    expect(reasons[0]).toMatch(/^is not a gpu-env-doctor snapshot/);
    expect(reasons.join(' ')).not.toMatch(/TOKENVALUE|SECRETVALUE|hf_/);
  });

  it('a path the user names is still followed through a link (the user chose it)', () => {
    const { dir } = setup();
    const link = path.join(path.dirname(dir), 'mine.json');
    fs.symlinkSync(path.join(dir, 'a.json'), link);
    const { files, walked } = expandInputs(fsys, '/', [link]);
    expect(files).toEqual([link]);
    expect('snapshot' in readInput(fsys, '/', link, walked.get(link))).toBe(true);
  });
});

describe('fleet inputs: the walk', () => {
  /** Names that collation and code units order differently, and names collation cannot tell apart. */
  const NAMES = [
    'b.json',
    'B.json',
    'a10.json',
    'a9.json',
    'A.json',
    '.hidden.json',
    'a.b.json',
    'a-b.json',
    'zz.json',
    'Ä.json',
    'a.json',
    'node-00010.json',
    'node-0009.json',
    // "é" composed and decomposed: equal for localeCompare, so in listing order (Node lists a folder by bytes)
    ...[0, 1, 2, 3, 4, 5].flatMap((i) => [`\u00e9${i}.json`, `e\u0301${i}.json`]),
  ];

  it('lists a folder in localeCompare order of its names, ties in listing order, paths as path.join gives them', () => {
    const base = tempDir('ged-fleet-walk-');
    const dir = path.join(base, 'nodes');
    fs.mkdirSync(dir);
    for (const n of NAMES) fs.writeFileSync(path.join(dir, n), IDLE);
    fs.mkdirSync(path.join(dir, 'Sub'));
    fs.writeFileSync(path.join(dir, 'Sub', 'x.json'), IDLE);
    // what the walk must give: a stable sort by localeCompare of what the folder lists, folders entered in place
    const listed = fs.readdirSync(dir).sort((a, b) => a.localeCompare(b));
    const expected = (shown: string) =>
      listed.flatMap((n) => (n === 'Sub' ? [path.join(shown, n, 'x.json')] : [path.join(shown, n)]));
    for (const [cwd, arg] of [
      ['/', dir],
      ['/', `${dir}/`],
      [base, 'nodes'],
      [base, './nodes/'],
      [base, 'nodes/../nodes'],
      [dir, '.'],
      [path.join(dir, 'Sub'), '..'],
    ]) {
      expect(expandInputs(fsys, cwd!, [arg!]).files).toEqual(expected(arg!));
    }
  });

  it('a file met again through a hard link is listed once', () => {
    const { dir } = setup();
    fs.linkSync(path.join(dir, 'a.json'), path.join(dir, 'b.json'));
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.linkSync(path.join(dir, 'a.json'), path.join(dir, 'sub', 'c.json'));
    fs.writeFileSync(path.join(dir, 'sub', 'd.json'), IDLE);
    const { files } = expandInputs(fsys, '/', [dir]);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['a.json', path.join('sub', 'd.json')]);
  });
});

describe('--redact: files that could not be read', () => {
  it('are named by their place, not by the node name their file name carries (serve --fleet)', () => {
    const m = new FleetRedactor().apply({
      machines: [{ file: 'snaps/node-a.json', host: 'node-a', users: ['alice'], stale: [] }],
      skipped: [
        { file: 'snaps/dgx-carol-03.json', reason: 'is not JSON' },
        { file: 'snaps/rack2/dgx-carol-04.json', reason: 'empty file' },
      ],
      redacted: false,
    });
    expect(m.skipped).toEqual([
      { file: 'snaps/unreadable-1.json', reason: 'is not JSON' },
      { file: 'snaps/rack2/unreadable-2.json', reason: 'empty file' },
    ]);
  });

  it('fleet --redact --json', () => {
    const { dir } = setup();
    fs.writeFileSync(path.join(dir, 'dgx-carol-03.json'), '{"schemaVersion": 1, "host": ');
    const r = runCli(['fleet', dir, '--json', '--redact']);
    expect(r.stdout).not.toContain('carol');
    expect(JSON.parse(r.stdout).inputs.skipped.map((s: { file: string }) => path.basename(s.file))).toEqual([
      'unreadable-1.json',
    ]);
  });
});
