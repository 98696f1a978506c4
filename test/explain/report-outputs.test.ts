// explain --html and --redact: the report a person opens, and the one they paste with names hidden.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';

const LOG = path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt');
const HELD = path.resolve(__dirname, '../fixtures/snapshots/h200-memory-held.json');

describe('explain --html / --redact', () => {
  it('writes a self-contained HTML report with the ranked causes and the machine at the time', () => {
    const out = path.join(tempDir(), 'r.html');
    const r = runCli(['explain', LOG, '--from', HELD, '--html', out]);
    expect(r.code).toBe(1);
    const html = fs.readFileSync(out, 'utf8');
    expect(html).toMatch(/<!DOCTYPE html>/i);
    expect(html).toContain('memory_held_by_other_process');
    expect(html).toMatch(/<svg/);
    expect(html).not.toMatch(/<script/i);
  });
  it('--redact replaces home paths and users in the JSON, consistently', () => {
    const dir = tempDir();
    const log = path.join(dir, 'log.txt');
    // TensorFlow's dso_loader wording, with the user's LD_LIBRARY_PATH in it
    fs.writeFileSync(
      log,
      "2021-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /home/alice/cuda/lib64\n",
    );
    const plain = runCli(['explain', log, '--no-machine', '--json']);
    expect(plain.stdout).toContain('/home/alice');
    const red = runCli(['explain', log, '--no-machine', '--json', '--redact']);
    expect(red.code).toBe(1);
    expect(red.stdout).not.toContain('alice');
    expect(JSON.parse(red.stdout).causes[0].id).toBe(JSON.parse(plain.stdout).causes[0].id);
  });
});
