// The H200 situation rebuilt under --root: torch loads pip's cuDNN 9.19 while the ld cache offers apt's 9.14;
// then the two ways it goes wrong there (LD_LIBRARY_PATH with the system cuDNN, and with cuda-13.0/compat).
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildH200Tree, H200_ENV, SP } from './h200-tree.js';

let root = '';
beforeAll(() => {
  root = buildH200Tree();
}, 120000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Json {
  consumers: {
    path: string;
    framework: string | null;
    resolved: {
      name: string;
      path: string | null;
      realPath: string | null;
      version: string | null;
      via: string;
      shadowed: { realPath: string | null; version: string | null; via: string }[];
    }[];
  }[];
  copies: { name: string; path: string; version: string | null; origin: string; package: { name: string } | null }[];
  loaded: { pid: number; path: string; version: string | null }[];
  processes: { pid: number; framework: string | null; differences: unknown[] }[];
  findings: {
    check: string;
    severity: string;
    status: string;
    rootCause: string | null;
    message: string;
    affects?: { framework?: string };
    consequences?: { framework?: string; text: string; outcome: string; certainty: string; source: string }[];
    fix?: { text: string; commands: string[] };
  }[];
}

function libs(env: Record<string, string>, extra: string[] = []): { code: number | null; json: Json; stderr: string } {
  const r = runCli(['libs', '--json', '--root', root, ...extra], { env });
  let json: Json;
  try {
    json = JSON.parse(r.stdout) as Json;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 500)}`);
  }
  return { code: r.code, json, stderr: r.stderr };
}

const torchOf = (j: Json) => j.consumers.find((c) => c.framework === 'torch')!;
const res = (j: Json, name: string) => torchOf(j).resolved.find((r) => r.name === name)!;

describe('libs on the H200 tree', () => {
  it('torch loads pip cuDNN 9.19 (preloaded); the ld cache’s 9.14 is shown as the copy it does not use', () => {
    const { code, json } = libs(H200_ENV);
    expect(code).toBe(0);
    expect(torchOf(json).path).toBe(`${SP}/torch/lib/libtorch_cuda.so`);
    expect(res(json, 'libcudnn.so.9')).toMatchObject({
      path: `${SP}/nvidia/cudnn/lib/libcudnn.so.9`,
      version: '9.19.0',
      via: 'preloaded',
    });
    expect(res(json, 'libcudnn.so.9').shadowed).toContainEqual({
      path: '/lib/x86_64-linux-gnu/libcudnn.so.9',
      realPath: '/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0',
      version: '9.14.0',
      via: 'ld_cache',
    });
    // cuDNN's sub-libraries come from pip's folder through libcudnn.so.9's RUNPATH.
    expect(res(json, 'libcudnn_graph.so.9')).toMatchObject({
      path: `${SP}/nvidia/cudnn/lib/libcudnn_graph.so.9`,
      version: '9.19.0',
      via: 'runpath',
    });
    // libcuda comes from the container's driver folder in LD_LIBRARY_PATH, as in ld-debug-head.txt.
    expect(res(json, 'libcuda.so.1')).toMatchObject({
      path: '/usr/local/nvidia/lib64/libcuda.so.1',
      version: '580.159.04',
      via: 'ld_library_path',
    });
    expect(res(json, 'libcublas.so.13')).toMatchObject({
      path: `${SP}/nvidia/cu13/lib/libcublas.so.13`,
      version: '13.1.0.3',
      via: 'preloaded',
    });
    // Both cuDNN copies are in the inventory, with origin and package.
    const cudnn = json.copies.filter((c) => c.name === 'libcudnn');
    expect(cudnn.map((c) => [c.version, c.origin, c.package?.name ?? null]).sort()).toEqual([
      ['9.14.0', 'system', null],
      ['9.19.0', 'pip', 'nvidia-cudnn-cu13'],
    ]);
    expect(json.copies.find((c) => c.path === '/usr/local/cuda-13.0/compat/libcuda.so.580.95.05')).toMatchObject({
      origin: 'compat',
      version: '580.95.05',
    });
    const info = json.findings.find((f) => f.check === 'libs.duplicate-versions')!;
    expect(info).toMatchObject({ severity: 'info', status: 'ok' });
    expect(info.message).toMatch(
      /PyTorch loads cuDNN 9\.19\.0 .*9\.14\.0 at \/usr\/lib\/x86_64-linux-gnu\/libcudnn\.so\.9\.14\.0/,
    );
    expect(json.findings.filter((f) => f.status === 'fail' || f.status === 'warn')).toEqual([]);
  });

  it('the running torch process (/proc/1578/maps) agrees with the emulation', () => {
    const { json } = libs(H200_ENV, ['--pid', '1578']);
    expect(json.processes).toEqual([
      { pid: 1578, ok: true, framework: 'torch', consumer: `${SP}/torch/lib/libtorch_cuda.so`, differences: [] },
    ]);
    expect(json.loaded.find((l) => l.path.endsWith('libcudnn.so.9'))).toMatchObject({ pid: 1578, version: '9.19.0' });
  });

  it('LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat: the older forward-compat libcuda wins → error 803 (driver_too_old)', () => {
    const { code, json } = libs({
      ...H200_ENV,
      LD_LIBRARY_PATH: '/usr/local/cuda-13.0/compat:/usr/local/nvidia/lib64',
    });
    expect(code).toBe(1);
    expect(res(json, 'libcuda.so.1')).toMatchObject({
      path: '/usr/local/cuda-13.0/compat/libcuda.so.1',
      version: '580.95.05',
      via: 'ld_library_path',
    });
    const f = json.findings.find((x) => x.check === 'libs.compat-libcuda')!;
    expect(f).toMatchObject({ severity: 'error', rootCause: 'driver_too_old' });
    expect(f.message).toMatch(/580\.95\.05 is older than the kernel driver 580\.159\.04.*803/);
    expect(f.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64']);
  });

  it('LD_LIBRARY_PATH with the system cuDNN: sub-libraries 9.14 under libcudnn 9.19 → sub-library mismatch, and the fix', () => {
    const { code, json } = libs({ ...H200_ENV, LD_LIBRARY_PATH: '/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64' });
    expect(code).toBe(1);
    expect(res(json, 'libcudnn.so.9')).toMatchObject({ version: '9.19.0', via: 'preloaded' });
    expect(res(json, 'libcudnn_cnn.so.9')).toMatchObject({
      realPath: '/usr/lib/x86_64-linux-gnu/libcudnn_cnn.so.9.14.0',
      version: '9.14.0',
      via: 'ld_library_path',
    });
    // The fact (which files load) is the message; what each framework does with it is a consequence with its certainty.
    const mix = json.findings.filter((x) => x.check === 'libs.cudnn-sublibrary-mismatch');
    const f = mix.find((x) => x.affects?.framework === 'torch')!;
    expect(f).toMatchObject({ severity: 'error', rootCause: 'cudnn_version_mismatch' });
    expect(f.message).toBe(
      `PyTorch loads libcudnn 9.19.0 from ${SP}/nvidia/cudnn/lib and its sub-libraries graph 9.14.0, engines_precompiled 9.14.0, engines_runtime_compiled 9.14.0, heuristic 9.14.0, ops 9.14.0, cnn 9.14.0, adv 9.14.0 from /usr/lib/x86_64-linux-gnu (LD_LIBRARY_PATH)`,
    );
    expect(f.consequences!.map((q) => [q.framework, q.outcome, q.certainty])).toEqual([
      ['torch', 'runs', 'verified'],
      ['torch', 'fails', 'verified'],
    ]);
    expect(f.consequences![1]!.text).toMatch(/compiled {2}against \(9, 19, 0\) but found runtime version \(9, 14, 0\)/);
    // the folder of seven sub-libraries is named once
    expect(f.fix!.text).toBe(
      "LD_LIBRARY_PATH is searched before libcudnn's own folder when it loads its sub-libraries; remove /usr/lib/x86_64-linux-gnu from it.",
    );
    expect(f.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64']);
    // JAX ran with this very mix on the H200: a warning, not a failure stated as certain.
    const jax = mix.find((x) => x.affects?.framework === 'jax')!;
    expect(jax).toMatchObject({ severity: 'warn', status: 'fail' });
    expect(jax.message).not.toMatch(/fails|SUBLIBRARY_VERSION_MISMATCH/);
    expect(jax.consequences).toEqual([
      expect.objectContaining({ framework: 'jax', outcome: 'runs', certainty: 'verified' }),
    ]);
    // The same files are not reported twice: the shadowing check leaves a mix under the framework's own libcudnn to this one.
    expect(json.findings.filter((x) => x.check === 'libs.ld-library-path-shadowing' && x.status !== 'ok')).toEqual([]);
  });

  it('--elf resolves any ELF file the same way; bad input is a usage error', () => {
    const { json } = libs(H200_ENV, ['--elf', `${SP}/nvidia/cu13/lib/libcublas.so.13`]);
    const c = json.consumers.find((x) => x.framework === null)!;
    expect(c.resolved.find((r) => r.name === 'libcublasLt.so.13')).toMatchObject({
      path: `${SP}/nvidia/cu13/lib/libcublasLt.so.13`,
      via: 'runpath',
    });
    const bad = runCli(['libs', '--root', root, '--elf', '/etc/ld.so.cache']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not an ELF file/);
    expect(runCli(['libs', '--root', root, '--pid', 'abc']).code).toBe(2);
    expect(runCli(['libs', '--root', root, '--pid', '999999']).stderr).toMatch(/no such process/);
  });

  it('the terminal view: the answer first (the findings, their fix); with -v the table per framework and both copies', () => {
    const env = { ...H200_ENV, LD_LIBRARY_PATH: '/usr/local/cuda-13.0/compat' };
    const answer = runCli(['libs', '--root', root], { env });
    expect(answer.code).toBe(1);
    expect(answer.stdout).toMatch(/^✗ The forward-compatibility libcuda 580\.95\.05/m);
    expect(answer.stdout).toMatch(/\$ unset LD_LIBRARY_PATH/);
    expect(answer.stdout).not.toMatch(/libcudnn\s+9\.14\.0\s+system/);
    expect(answer.stdout).toMatch(/add -v\)$/m);
    const r = runCli(['libs', '--root', root, '-v'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout.indexOf('✗ The forward-compatibility')).toBeLessThan(r.stdout.indexOf('PyTorch  '));
    // paths inside an environment are shown relative to it (-v: whole)
    expect(r.stdout).toMatch(
      /PyTorch\s+site-packages\/torch\/lib\/libtorch_cuda\.so  \(environment \/opt\/torch\/\.venv\)/,
    );
    expect(runCli(['libs', '--root', root, '-v'], { env: H200_ENV }).stdout).toMatch(
      /\/opt\/torch\/\.venv\/lib\/python3\.12\/site-packages\/nvidia\/cudnn\/lib\/libcudnn\.so\.9/,
    );
    expect(r.stdout).toMatch(
      /libcudnn\.so\.9\s+\S+nvidia\/cudnn\/lib\/libcudnn\.so\.9\s+9\.19\.0\s+preloaded \(torch\)/,
    );
    expect(r.stdout).toMatch(/libcudnn\s+9\.14\.0\s+system\s+\/usr\/lib\/x86_64-linux-gnu\/libcudnn\.so\.9\.14\.0/);
    expect(r.stdout).toMatch(/✗ The forward-compatibility libcuda 580\.95\.05/);
    expect(r.stdout).toMatch(/\$ unset LD_LIBRARY_PATH/);
  });
});
