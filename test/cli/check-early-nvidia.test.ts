// check starts nvidia-smi before it loads the rest of its code; an option refused after that start must not
// wait for it: the command ends at once and the nvidia-smi it started is ended with it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';
import { buildH200Tree, H200_ENV } from '../libs/h200-tree.js';

const H = (p: string) => path.join(FIXTURES, 'h200', p);

/** An nvidia-smi that records its pid, then answers `-q -x` only after `seconds`. */
function slowSmi(seconds: number): { bin: string; pidFile: string } {
  const bin = tempDir('ged-bin-');
  const pidFile = path.join(bin, 'smi.pid');
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) echo $$ >> '${pidFile}'; sleep ${seconds}; cat '${H('idle/nvidia-smi-q.xml')}' ;;
  --query-gpu=*) cat '${H('idle/query-gpu.csv')}' ;;
  *) exit 2 ;;
esac`,
  );
  return { bin, pidFile };
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe('check: nvidia-smi started first', () => {
  it('a refused option ends the command at once and ends the nvidia-smi it started', () => {
    const { bin, pidFile } = slowSmi(20);
    const t0 = Date.now();
    const r = runCli(['check', '--json', '--quiet', '--timeout', '30', '--root', makeRoot()], {
      env: { PATH: `${bin}:/usr/bin:/bin` },
    });
    const took = Date.now() - t0;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gpu-env-doctor: --quiet goes with the text report, not --format json\n');
    // it was started (before the options were judged), and did not hold the exit for its 20 s
    expect(fs.existsSync(pidFile)).toBe(true);
    expect(took).toBeLessThan(10000);
    expect(alive(Number(fs.readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('--from reads the file and starts no nvidia-smi', () => {
    const { bin, pidFile } = slowSmi(0);
    const from = path.resolve(__dirname, '../fixtures/snapshots');
    const file = fs.readdirSync(from).find((f) => f.endsWith('.json'))!;
    const r = runCli(['check', '--json', '--from', path.join(from, file)], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect([0, 1]).toContain(r.code);
    expect(fs.existsSync(pidFile)).toBe(false);
  });

  it('the nvidia-smi started first is the one the report reads (called once)', () => {
    const { bin, pidFile } = slowSmi(0.2);
    const r = runCli(['check', '--json', '--root', makeRoot()], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.stderr).toBe('');
    const result = JSON.parse(r.stdout) as { snapshot: { nvidia: { ok: boolean } } };
    expect(result.snapshot.nvidia.ok).toBe(true);
    expect(fs.readFileSync(pidFile, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('the checks begun while nvidia-smi works give what the same snapshot gives read back (--from)', () => {
    // answering after 1.5 s: the sections read before are judged first, the GPU's part after the answer
    const { bin } = slowSmi(1.5);
    const root = buildH200Tree();
    const env = { ...H200_ENV, PATH: `${bin}:${H200_ENV.PATH}`, VIRTUAL_ENV: '/opt/torch/.venv', HOME: '/root' };
    const probed = runCli(['check', '--json', '--root', root], { env });
    expect(probed.stderr).toBe('');
    const result = JSON.parse(probed.stdout) as { snapshot: { nvidia: { ok: boolean } }; findings: unknown[] };
    expect(result.snapshot.nvidia.ok).toBe(true);
    const file = path.join(tempDir('ged-snap-'), 'snapshot.json');
    fs.writeFileSync(file, JSON.stringify(result.snapshot));
    const read = runCli(['check', '--json', '--from', file], { env });
    expect(read.code).toBe(probed.code);
    expect(result.findings).toEqual((JSON.parse(read.stdout) as { findings: unknown[] }).findings);
    // a GPU answered: the checks that read it were run again on the whole snapshot
    expect(JSON.stringify(result.findings)).toContain('NVIDIA H200');
  });
});
