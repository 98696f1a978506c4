// The H200 tree (--root) with the two loader cases issue 27 measured there: LD_PRELOAD (and /etc/ld.so.preload)
// of the system libcudnn.so.9 9.14, under which torch and JAX really mapped 9.14 and its 9.14 sub-libraries; and
// a cut-short libcudnn_graph.so.9 first on LD_LIBRARY_PATH, under which PyTorch's convolution died with SIGBUS.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildH200Tree, H200_ENV, SP } from './h200-tree.js';

let root = '';
const SYS = '/usr/lib/x86_64-linux-gnu';
const PIP = `${SP}/nvidia/cudnn/lib`;
beforeAll(() => {
  root = buildH200Tree();
  // pip's libcudnn_graph.so.9, its first 1 KiB only (gpu-lab/loader-node.sh cuts the real one at 1 MiB)
  fs.mkdirSync(path.join(root, 'shadow'));
  fs.writeFileSync(
    path.join(root, 'shadow/libcudnn_graph.so.9'),
    fs.readFileSync(path.join(root, PIP.slice(1), 'libcudnn_graph.so.9')).subarray(0, 1024),
  );
}, 120000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Resolved {
  name: string;
  path: string | null;
  realPath: string | null;
  version: string | null;
  via: string;
  preloadFrom?: string;
  unloadable?: string;
  blocker?: { path: string; via: string };
  shadowed: { path: string; realPath: string | null; version: string | null; via: string }[];
}
interface Json {
  consumers: { framework: string | null; resolved: Resolved[] }[];
  findings: {
    check: string;
    severity: string;
    status: string;
    rootCause: string | null;
    message: string;
    affects?: { framework?: string };
    consequences?: { outcome: string; certainty: string; text: string }[];
    fix?: { text: string; commands: string[] };
  }[];
}

function libs(env: Record<string, string>): { code: number | null; json: Json } {
  const r = runCli(['libs', '--json', '--root', root], { env });
  return { code: r.code, json: JSON.parse(r.stdout) as Json };
}
const of = (j: Json, fw: string, name: string) =>
  j.consumers.find((c) => c.framework === fw)!.resolved.find((r) => r.name === name)!;

describe('LD_PRELOAD of the system cuDNN on the H200 tree', () => {
  it('torch and JAX load 9.14 and its 9.14 sub-libraries; pip’s 9.19 is mapped but loses; the finding names the preload', () => {
    const { code, json } = libs({ ...H200_ENV, LD_PRELOAD: `${SYS}/libcudnn.so.9` });
    expect(code).toBe(0); // a warning: below the default threshold
    for (const fw of ['torch', 'jax']) {
      const main = of(json, fw, 'libcudnn.so.9');
      expect(main).toMatchObject({
        realPath: `${SYS}/libcudnn.so.9.14.0`,
        version: '9.14.0',
        via: 'ld_preload',
        preloadFrom: 'LD_PRELOAD',
      });
      expect(main.shadowed).toContainEqual(
        expect.objectContaining({ realPath: `${PIP}/libcudnn.so.9`, version: '9.19.0', via: 'preloaded' }),
      );
      // the sub-libraries the 9.14 libcudnn opens: its exact version first, found in the ld cache's folder
      expect(of(json, fw, 'libcudnn_graph.so.9.14.0')).toMatchObject({
        realPath: `${SYS}/libcudnn_graph.so.9.14.0`,
        version: '9.14.0',
      });
    }
    const f = json.findings.filter((x) => x.check === 'libs.duplicate-versions' && x.status === 'warn');
    expect(f.map((x) => x.affects?.framework).sort()).toEqual(['jax', 'torch']);
    expect(f[0]!.message).toMatch(
      /loads cuDNN 9\.14\.0 from \/usr\/lib\/x86_64-linux-gnu\/libcudnn\.so\.9\.14\.0, forced in by LD_PRELOAD; its own 9\.19\.0 .* is loaded too but not used/,
    );
    expect(f[0]!.fix!.commands).toEqual(['unset LD_PRELOAD']);
    // no sub-library mismatch: the preloaded 9.14 brings its own 9.14 sub-libraries
    expect(json.findings.filter((x) => x.check === 'libs.cudnn-sublibrary-mismatch' && x.status !== 'ok')).toEqual([]);
    // and nothing says 9.19 is what torch loads
    expect(json.findings.map((x) => x.message).join('\n')).not.toMatch(/loads cuDNN 9\.19/);
  });

  it('/etc/ld.so.preload does the same, and its fix is the line in that file', () => {
    fs.mkdirSync(path.join(root, 'etc'), { recursive: true });
    fs.writeFileSync(path.join(root, 'etc/ld.so.preload'), `${SYS}/libcudnn.so.9\n`);
    try {
      const { json } = libs(H200_ENV);
      expect(of(json, 'torch', 'libcudnn.so.9')).toMatchObject({
        version: '9.14.0',
        via: 'ld_preload',
        preloadFrom: '/etc/ld.so.preload',
      });
      const f = json.findings.find((x) => x.check === 'libs.duplicate-versions' && x.status === 'warn')!;
      expect(f.message).toMatch(/forced in by \/etc\/ld\.so\.preload/);
      expect(f.fix!.text).toMatch(/\/etc\/ld\.so\.preload/);
    } finally {
      fs.rmSync(path.join(root, 'etc/ld.so.preload'));
    }
  });

  it('a running torch process started with LD_PRELOAD (its environ): both libcudnn mapped, the emulation agrees, no mix', () => {
    const cu13 = `${SP}/nvidia/cu13/lib`;
    const mapped = [
      `${PIP}/libcudnn.so.9`,
      `${cu13}/libcudart.so.13`,
      `${SYS}/libcudnn.so.9.14.0`,
      `${SYS}/libcudnn_graph.so.9.14.0`,
      `${SYS}/libcudnn_cnn.so.9.14.0`,
      `${SP}/torch/lib/libtorch_cuda.so`,
    ];
    const w = (p: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    };
    w(
      'proc/1600/maps',
      mapped.map((p, i) => `7f10${i}000-7f10${i}fff r-xp 00000000 08:01 ${2000 + i}                  ${p}`).join('\n') +
        '\n',
    );
    w(
      'proc/1600/environ',
      `PATH=/usr/bin\0LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib\0LD_PRELOAD=${SYS}/libcudnn.so.9\0`,
    );
    w('proc/1600/status', 'Name:\tpython3\nState:\tS (sleeping)\nPPid:\t418\nUid:\t0\t0\t0\t0\n');
    // the shell running libs has no LD_PRELOAD: the process's own environment is what counts
    const r = runCli(['libs', '--json', '--root', root, '--pid', '1600'], { env: H200_ENV });
    const j = JSON.parse(r.stdout) as Json & { processes: { pid: number; differences: unknown[] }[] };
    expect(j.processes).toEqual([expect.objectContaining({ pid: 1600, framework: 'torch', differences: [] })]);
    expect(j.findings.filter((x) => x.check === 'libs.cudnn-sublibrary-mismatch' && x.status !== 'ok')).toEqual([]);
  });

  it('without a preload torch still loads its own 9.19 (the preload is what changes it)', () => {
    const { json } = libs(H200_ENV);
    expect(of(json, 'torch', 'libcudnn.so.9')).toMatchObject({ version: '9.19.0', via: 'preloaded' });
  });
});

describe('a cut-short libcudnn_graph.so.9 first on LD_LIBRARY_PATH', () => {
  it('is what cuDNN opens; an error naming the crash, and the fix removes its folder', () => {
    const { code, json } = libs({ ...H200_ENV, LD_LIBRARY_PATH: '/shadow:/usr/local/nvidia/lib64' });
    expect(code).toBe(1);
    const g = of(json, 'torch', 'libcudnn_graph.so.9');
    expect(g).toMatchObject({ path: '/shadow/libcudnn_graph.so.9', via: 'ld_library_path', unloadable: 'crash' });
    expect(g.shadowed[0]).toMatchObject({ path: `${PIP}/libcudnn_graph.so.9`, via: 'runpath' });
    const f = json.findings.filter((x) => x.check === 'libs.unloadable');
    const torch = f.find((x) => x.affects?.framework === 'torch')!;
    expect(torch).toMatchObject({ severity: 'error', status: 'fail', rootCause: 'library_missing' });
    expect(torch.message).toBe(
      'PyTorch: libcudnn_graph.so.9 is reached first at /shadow/libcudnn_graph.so.9 (LD_LIBRARY_PATH), a file cut short: the loader maps it and the process dies',
    );
    expect(torch.consequences![0]).toMatchObject({
      outcome: 'fails',
      certainty: 'verified',
      text: expect.stringMatching(/SIGBUS \(exit code 135\) when libcudnn\.so\.9 opens it/),
    });
    expect(torch.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64']);
    expect(torch.fix!.text).toMatch(/Remove \/shadow from LD_LIBRARY_PATH/);
    // not also a "missing" warning with the opposite fix, nor a sub-library version mix
    expect(
      json.findings.filter(
        (x) => (x.check === 'libs.missing' || x.check === 'libs.cudnn-sublibrary-mismatch') && x.status !== 'ok',
      ),
    ).toEqual([]);
  });

  it('says so in Chinese too', () => {
    const r = runCli(['libs', '--root', root, '--lang', 'zh'], { env: { ...H200_ENV, LD_LIBRARY_PATH: '/shadow' } });
    expect(r.stdout).toMatch(/一个被截断的文件：加载器会映射它，进程随即崩溃/);
    expect(r.stdout).toMatch(/从 LD_LIBRARY_PATH 中去掉 \/shadow/);
  });
});
