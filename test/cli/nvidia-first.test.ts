// dist/cli.js starts check's nvidia-smi before it loads the program (src/cli/early.ts) and check takes that run
// over: nvidia-smi is called once, before the start chunk loads, and whatever it does (answers, is missing, hangs,
// prints something else, fails with a code) check reports exactly what it reported when it started nvidia-smi
// itself. The command line the early start refuses is the control: `--root -R` (a value given apart that looks
// like an option) means what `--root=-R` means to check, and starts nothing early.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';

const H = (p: string) => path.join(FIXTURES, 'h200', p);

type Behaviour = 'answers' | 'bad-xml' | 'exit-code' | 'hangs';
const SCRIPTS: Record<Behaviour, string> = {
  answers: `cat '${H('idle/nvidia-smi-q.xml')}'`,
  'bad-xml': `echo '<?xml version="1.0" ?><nvidia_smi_log><driver_version>580'`,
  'exit-code': `echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."; exit 9`,
  hangs: 'sleep 30',
};

/**
 * A fake nvidia-smi that records each call (`pid args`), then behaves as `b` for `-q -x`; the query answers.
 * `bin`: its folder (the same one for runs compared: PATH is in the report).
 */
function smi(b: Behaviour, bin = tempDir('ged-bin-')): { bin: string; calls: () => string[] } {
  const log = path.join(bin, 'calls');
  fs.rmSync(log, { force: true });
  fakeBin(
    bin,
    'nvidia-smi',
    `echo "$$ $*" >> '${log}'
case "$1" in
  -q) ${SCRIPTS[b]} ;;
  --query-gpu=*) cat '${H('idle/query-gpu.csv')}' ;;
  *) exit 2 ;;
esac`,
  );
  return { bin, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

/** A root folder named `-R` in a folder of its own (the working folder of both runs). */
function dashRoot(): string {
  const cwd = tempDir('ged-cwd-');
  fs.renameSync(makeRoot(), path.join(cwd, '-R'));
  return cwd;
}

/** The report without what differs between any two runs: times, durations, our pid, the probes' order (they are
 *  listed as they end). */
function stable(stdout: string): unknown {
  return JSON.parse(stdout, (k, v) =>
    k === 'durationMs' || k === 'collectedAt' || k === 'pid' || k === 'generatedAt'
      ? 0
      : k === 'probes' && Array.isArray(v)
        ? [...(v as { id: string }[])].sort((a, b) => a.id.localeCompare(b.id))
        : v,
  );
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
/** alive after up to 2 s: a SIGKILL sent as our command ended takes a moment to land */
function stillAlive(pid: number): boolean {
  const until = Date.now() + 2000;
  while (alive(pid) && Date.now() < until) spawnSync('sleep', ['0.05']);
  return alive(pid);
}

describe('check: nvidia-smi started by dist/cli.js itself', () => {
  for (const b of Object.keys(SCRIPTS) as Behaviour[]) {
    it(`nvidia-smi that ${b}: called once, and the same report as when check starts it`, () => {
      const cwd = dashRoot();
      const timeout = b === 'hangs' ? ['--timeout', '1'] : [];
      const bin = tempDir('ged-bin-');
      const reports = ['--root=-R', '--root -R'].map((rootArg) => {
        const s = smi(b, bin);
        const t0 = Date.now();
        const r = runCli(['check', '--json', ...rootArg.split(' '), ...timeout], {
          cwd,
          env: { PATH: `${s.bin}:/usr/bin:/bin` },
        });
        const took = Date.now() - t0;
        expect(r.stderr).toBe('');
        // -q -x and --query-gpu, each once
        expect(s.calls().map((c) => c.split(' ')[1])).toEqual(['-q', expect.stringMatching(/^--query-gpu=/)]);
        if (b === 'hangs') {
          // ended at its time limit, with its process group
          expect(took).toBeLessThan(10000);
          expect(stillAlive(Number(s.calls()[0]!.split(' ')[0]))).toBe(false);
        }
        return { code: r.code, report: stable(r.stdout) as { snapshot: { nvidia: unknown } } };
      });
      expect(reports[0]).toEqual(reports[1]);
      const nvidia = reports[0]!.report.snapshot.nvidia;
      if (b === 'answers') expect(nvidia).toMatchObject({ ok: true, driverVersion: '580.159.04' });
      else expect(nvidia).toMatchObject({ ok: false });
      if (b === 'hangs') expect(nvidia).toMatchObject({ failure: { reason: 'timeout' } });
      if (b === 'exit-code') expect(nvidia).toMatchObject({ failure: { reason: 'driver-not-loaded' } });
      if (b === 'bad-xml') expect(JSON.stringify(nvidia)).toContain('not its XML');
    });
  }

  it('nvidia-smi missing: the same report either way', () => {
    const cwd = dashRoot();
    const [early, late] = ['--root=-R', '--root -R'].map((rootArg) =>
      runCli(['check', '--json', ...rootArg.split(' ')], { cwd, env: { PATH: '/usr/bin:/bin' } }),
    );
    expect(early!.stderr).toBe('');
    expect(stable(early!.stdout)).toEqual(stable(late!.stdout));
    expect(early!.code).toBe(late!.code);
    expect((stable(early!.stdout) as { snapshot: { nvidia: unknown } }).snapshot.nvidia).toMatchObject({
      failure: { reason: 'not-installed' },
    });
  });

  it('started before the program loads: a build whose start cannot load still started it, and ends it', () => {
    const dist = path.dirname(CLI);
    const copy = path.join(tempDir('ged-dist-'), 'dist');
    fs.cpSync(dist, copy, { recursive: true });
    const startChunk = fs.readdirSync(path.join(copy, 'chunks')).find((f) => /^start-.*\.js$/.test(f))!;
    fs.writeFileSync(path.join(copy, 'chunks', startChunk), 'throw new Error("start could not load");\n');
    const cwd = dashRoot();
    const run = (rootArg: string) => {
      const s = smi('hangs');
      const t0 = Date.now();
      const r = spawnSync(
        process.execPath,
        [path.join(copy, 'cli.js'), 'check', '--timeout', '20', ...rootArg.split(' ')],
        {
          cwd,
          env: { PATH: `${s.bin}:/usr/bin:/bin` },
          encoding: 'utf8',
          timeout: 30000,
        },
      );
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('start could not load');
      // the failed start did not wait for nvidia-smi's 20 s
      expect(Date.now() - t0).toBeLessThan(10000);
      for (const c of s.calls()) expect(stillAlive(Number(c.split(' ')[0]))).toBe(false);
      return s.calls().length;
    };
    // both calls were running before the start was loaded
    expect(run('--root=-R')).toBe(2);
    // and the other form of the same command line (the comparisons above) starts nothing before it
    expect(run('--root -R')).toBe(0);
  });

  it('nothing started for explain --no-machine, --from, --version, --help, a refused option or value', () => {
    const root = makeRoot();
    const snapshots = path.join(FIXTURES, 'snapshots');
    const from = path.join(snapshots, fs.readdirSync(snapshots).find((f) => f.endsWith('.json'))!);
    const log = H('logs/conv-keep1200-bs64.txt');
    const lines: [string[], number[]][] = [
      [
        ['explain', log, '--no-machine'],
        [0, 1],
      ],
      [
        ['check', '--json', '--from', from],
        [0, 1],
      ],
      [['--version'], [0]],
      [['--help'], [0]],
      [['check', '--help'], [0]],
      [['check', '--bogus', '--root', root], [2]],
      [['check', '--lang', 'fr', '--root', root], [2]],
      [['check', 'extra', '--root', root], [2]],
      [['check', '--root', path.join(root, 'not-there')], [2]],
    ];
    for (const [argv, codes] of lines) {
      const s = smi('answers');
      const r = runCli(argv, { env: { PATH: `${s.bin}:/usr/bin:/bin` } });
      expect(codes, `${argv.join(' ')}: ${r.stderr}`).toContain(r.code);
      expect(s.calls(), argv.join(' ')).toEqual([]);
    }
  });
});
