// `run` with a live holder whose framework shows in its /proc/PID/maps: a real process here that has mapped a
// library at jax_plugins/xla_cuda13/xla_cuda_plugin.so (built with gcc), which a fake nvidia-smi lists with the
// H200 JAX holder's 107918 MiB (its real XML, test/fixtures/h200-truth/holders/smi-both.xml). The job prints
// PyTorch's out-of-memory message naming that PID. run must name the holder's framework, its policy and the
// arithmetic: without it, this job (33.5 GiB + 6.1 GiB) fits.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';
import { HOLDERS } from '../helpers/holders.js';
import { buildLib } from '../libs/build.js';

let dir = '';
let holder: ChildProcess;
const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';

beforeAll(async () => {
  dir = tempDir('ged-runholder-');
  const plugin = buildLib(dir, { file: 'sp/jax_plugins/xla_cuda13/xla_cuda_plugin.so', soname: 'xla_cuda_plugin.so' });
  holder = spawn(
    'python3',
    ['-c', `import ctypes, sys, time; ctypes.CDLL(sys.argv[1]); print("ready", flush=True); time.sleep(60)`, plugin],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
  const pid = holder.pid!;
  const xml = fs
    .readFileSync(path.join(HOLDERS, 'smi-both.xml'), 'utf8')
    .replace('<pid>1968</pid>', `<pid>${pid}</pid>`)
    .replace(
      /<process_info>\s*<gpu_instance_id>N\/A<\/gpu_instance_id>\s*<compute_instance_id>N\/A<\/compute_instance_id>\s*<pid>1969<\/pid>[\s\S]*?<\/process_info>/,
      '',
    );
  fs.writeFileSync(path.join(dir, 'smi.xml'), xml);
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${dir}/smi.xml' ;;
  --query-gpu=index,uuid,memory.used,memory.total) while :; do echo "0, ${UUID}, 124835, 143771"; sleep 0.1; done ;;
  --query-gpu=*) echo "0, 9.0" ;;
  --query-compute-apps=*) while :; do echo "${pid}, 107918 MiB, ${UUID}"; sleep 0.1; done ;;
  *) exit 2 ;;
esac`,
  );
}, 60000);
afterAll(() => {
  holder?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('run: the holder’s framework and the arithmetic', () => {
  it('names the JAX holder, its preallocation, and that the job fits without it', () => {
    const pid = holder.pid!;
    const oom = `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.10 GiB. GPU 0 has a total capacity of 139.80 GiB of which 1.10 GiB is free. Process ${pid} has 105.39 GiB memory in use. Including non-PyTorch memory, this process has 33.50 GiB memory in use. Of the allocated memory 32.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but unallocated.`;
    const html = path.join(dir, 'report.html');
    const r = runCli(
      ['run', '--interval', '100', '--html', html, '--', 'sh', '-c', `sleep 0.3; echo '${oom}' >&2; exit 1`],
      { env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` }, timeoutMs: 60000 },
    );
    expect(r.code).toBe(1);
    if (process.env.SHOW) console.log(r.stderr);
    // machine facts are evidence lines of the cause, marked as this machine's (the one finding model)
    expect(r.stderr).toContain(`│ now: PID ${pid} (JAX, python3,`);
    expect(r.stderr).toContain(
      `│ without PID ${pid} (JAX, 105.4 GiB) this job, 33.5 GiB + 6.1 GiB, fits in the GPU's 139.8 GiB (the total the log states)   (this machine)`,
    );
    expect(r.stderr).toMatch(new RegExp(`GPU 0 NVIDIA H200: .*JAX python3 \\(PID ${pid}[^)]*\\) 105\\.4 GiB`));
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toContain(`JAX python3 (PID ${pid}`);
    expect(page).toContain('XLA_PYTHON_CLIENT_PREALLOCATE=false');
    const json = JSON.parse(
      runCli(['procs', '--json'], { env: { PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` } })
        .stdout,
    );
    expect(json.processes.find((p: { pid: number }) => p.pid === pid)).toMatchObject({
      framework: { name: 'jax', evidence: [expect.stringContaining('jax_plugins/xla_cuda13/xla_cuda_plugin.so')] },
      policy: { reserve: true },
    });
  });
});
