// The explain command as users run it: the built CLI in a child process (test/helpers/cli.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const LOGS = path.resolve(__dirname, '../fixtures/h200/logs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'explain-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('gpu-env-doctor explain', () => {
  it('--json prints the contract shape; exit 1 when causes are found', () => {
    const r = runCli(['explain', path.join(LOGS, 'conv-keep1200-bs64.txt'), '--json', '--no-machine']);
    expect(r.code).toBe(1);
    const d = JSON.parse(r.stdout);
    expect(d.schemaVersion).toBe(1);
    expect(d.causes[0]).toMatchObject({
      id: 'memory_held_by_other_process',
      evidence: [{ line: 26 }],
      fix: { text: expect.any(String), commands: expect.any(Array) },
    });
    expect(d.causes[0].confidence).toBeGreaterThan(0);
    expect(d.causes[0].confidence).toBeLessThanOrEqual(1);
    for (let i = 1; i < d.causes.length; i++)
      expect(d.causes[i].confidence).toBeLessThanOrEqual(d.causes[i - 1].confidence);
    expect(r.stderr).toBe('');
  });

  it('reads standard input with "-"', () => {
    const r = runCli(['explain', '-', '--json', '--no-machine'], {
      input: 'RuntimeError: No CUDA GPUs are available\n',
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).causes[0].id).toBe('no_device_visible');
  });

  it('reads several files, numbering lines across them and naming the file in evidence', () => {
    const a = path.join(tmp, 'a.log');
    fs.writeFileSync(a, 'starting\n');
    const r = runCli(['explain', a, path.join(LOGS, 'novis-torch.txt'), '--json', '--no-machine']);
    const ev = JSON.parse(r.stdout).causes[0].evidence[0];
    expect(ev).toMatchObject({ line: 7, source: path.join(LOGS, 'novis-torch.txt') });
  });

  it('exit 0 and says so when nothing points anywhere', () => {
    const f = path.join(tmp, 'fine.log');
    fs.writeFileSync(f, 'epoch 1 loss 0.3\nepoch 2 loss 0.2\n');
    const r = runCli(['explain', f, '--no-machine']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Nothing in the input points/);
  });

  it('terminal output: verdict, evidence line numbers, fix; --markdown renders sections', () => {
    const t = runCli(['explain', path.join(LOGS, 'torch-oom-huge.txt'), '--no-machine']);
    expect(t.stdout).toMatch(/Most likely: the job itself does not fit/);
    // the evidence whole, wrapped under its gutter, with where it was read at its end
    expect(t.stdout).toMatch(/│ torch\.OutOfMemoryError[\s\S]*?\(line 3\)/);
    expect(t.stdout).toMatch(/Fix:/);
    // ranks, not severity glyphs; no internal ids in the headlines without -v
    expect(t.stdout).toMatch(/^1\. The job itself does not fit in GPU memory \d+%$/m);
    expect(t.stdout).not.toMatch(/[✗!] \d\.|\[gpu_memory_exhausted\]/);
    expect(runCli(['explain', path.join(LOGS, 'torch-oom-huge.txt'), '--no-machine', '-v']).stdout).toContain(
      '[gpu_memory_exhausted]',
    );
    const m = runCli(['explain', path.join(LOGS, 'torch-oom-huge.txt'), '--no-machine', '--markdown']);
    expect(m.stdout).toMatch(/^## gpu-env-doctor explain/);
    expect(m.stdout).toMatch(/### 1\. The job itself does not fit in GPU memory \(\d+%\)/);
  });

  it('explain --from says which snapshot the machine facts come from, and how old they are', () => {
    const snap = path.resolve(__dirname, '../fixtures/snapshots/h200-memory-held.json');
    const r = runCli(['explain', path.join(LOGS, 'torch-oom-huge.txt'), '--from', snap]);
    expect(r.stdout.split('\n')[1]).toMatch(
      /^ {2}the machine's facts from the snapshot .*h200-memory-held\.json: host \S+, taken \d{4}-\d\d-\d\d \d\d:\d\d UTC \(.* ago\)/,
    );
    expect(runCli(['explain', path.join(LOGS, 'torch-oom-huge.txt'), '--from', snap, '--markdown']).stdout).toMatch(
      /the machine's facts from the snapshot/,
    );
  });

  it('an ambiguous one-liner: says it cannot tell, the evidence once, ONE next step that decides, then the candidates with what tells them apart', () => {
    const headline =
      'UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.';
    const r = runCli(['explain', '-', '--no-machine'], { input: `${headline}\n`, env: { COLUMNS: '80' } });
    const lines = r.stdout.split('\n');
    expect(lines[2]).toMatch(/^This line alone cannot tell which of \d causes it is\.$/);
    expect(r.stdout.match(/UnknownError/g)).toHaveLength(1);
    // one next step, and it is the command that decides; no candidate's fix offered as the answer
    expect(r.stdout.match(/^Next step:/gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/^ {2}\$ gpu-env-doctor check --deep {3}# on the machine that failed$/m);
    expect(r.stdout).not.toMatch(/Fix:|Cheapest test|If it is the first/);
    expect(r.stdout.indexOf('Next step:')).toBeLessThan(r.stdout.indexOf('Candidates'));
    const at = lines.findIndex((l) => l.startsWith('Candidates'));
    const candidates = lines.slice(at).filter((l) => /^ {2}\d\. /.test(l));
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    for (const c of candidates.slice(0, 2)) expect(lines[lines.indexOf(c) + 1]).toMatch(/^ {5}tells it: /);
    expect(r.stdout).not.toMatch(/XLA_PYTHON_CLIENT/);
    expect(lines.length).toBeLessThan(32);
    for (const l of lines) if (!/^\s+\$ /.test(l)) expect(l.length).toBeLessThanOrEqual(80);
  });

  it.each([
    [[], /the input is empty \(stdin\)/], // a piped (here: empty) standard input is read without "-"
    [['--framework', 'caffe'], /--framework must be tensorflow, pytorch, jax or paddle, not "caffe"/],
    [['/nonexistent/x.log'], /cannot read \/nonexistent\/x.log: no such file/],
    [[os.tmpdir()], /is a directory/],
    [['-', '-'], /only once/],
  ])('usage errors exit 2 with one line: %j', (extra, msg) => {
    const r = runCli(['explain', ...(extra as string[]), '--no-machine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('empty input is a usage error', () => {
    const f = path.join(tmp, 'empty.log');
    fs.writeFileSync(f, '');
    const r = runCli(['explain', f, '--no-machine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/input is empty/);
    expect(runCli(['explain', '-', '--no-machine'], { input: '' }).code).toBe(2);
  });

  it('an unreadable file is a usage error', () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const f = path.join(tmp, 'secret.log');
    fs.writeFileSync(f, 'x');
    fs.chmodSync(f, 0o000);
    const r = runCli(['explain', f, '--no-machine']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/permission denied/);
  });

  it('--from combines a saved snapshot (the real H200 one with a process holding memory)', () => {
    const snap = path.resolve(__dirname, '../fixtures/snapshots/h200-memory-held.json');
    const log =
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 139.80 GiB total capacity; 1.00 GiB already allocated; 300.00 MiB free; 1.10 GiB reserved in total by PyTorch)\n';
    const r = runCli(['explain', '-', '--json', '--from', snap], { input: log });
    const d = JSON.parse(r.stdout);
    expect(d.machine.used).toBe(true);
    expect(d.causes[0].id).toBe('memory_held_by_other_process');
    expect(d.causes[0].evidence.some((e: { source?: string }) => e.source === 'machine')).toBe(true);
  });

  it('binary junk does not crash the CLI', () => {
    const f = path.join(tmp, 'junk.bin');
    fs.writeFileSync(f, Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256)));
    const r = runCli(['explain', f, '--json', '--no-machine']);
    expect([0, 1]).toContain(r.code);
    expect(JSON.parse(r.stdout).schemaVersion).toBe(1);
  });
});
