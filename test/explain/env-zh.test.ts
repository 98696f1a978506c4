// Environment lines as Chinese posts write them (PaddlePaddle's Chinese issue template, CSDN/Zhihu questions):
// the same facts as the English lines give. Also the package-list rows and Paddle's banner read in any locale,
// and a Chinese sentence that happens to start like a key is not read as one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import type { EnvironmentFacts } from '../../src/judge/explain/types.js';
import { envBlockZh, type CorpusCase } from '../../bench/lib/env-blocks.mjs';
import { envBlock } from '../../src/judge/explain/priors/corpus.js';

const env = (t: string) => explainText(t).environment;

/** the facts as plain values, for comparison */
function plain(e: EnvironmentFacts): Record<string, unknown> {
  const v = (f?: { value: unknown }) => f?.value ?? null;
  return {
    framework: v(e.framework),
    frameworkVersion: v(e.frameworkVersion),
    buildCuda: v(e.buildCuda),
    cuda: v(e.cuda),
    driverCuda: v(e.driverCuda),
    cudnn: v(e.cudnn),
    driver: v(e.driver),
    os: v(e.os),
    python: v(e.python),
    container: e.container ? 'yes' : null,
    install: e.install.map((x) => x.value).sort(),
    gpus: e.gpus.map((g) => ({ name: g.name, cc: g.computeCapability ?? null, mib: g.totalMiB ?? null })),
  };
}

describe('Chinese environment lines', () => {
  it('several facts on one line with full-width punctuation: 显卡：RTX 3060 6G，CUDA 11.2，cuDNN 8.1', () => {
    const e = env('显卡：RTX 3060 6G，CUDA 11.2，cuDNN 8.1');
    expect(e.gpus).toHaveLength(1);
    expect(e.gpus[0]).toMatchObject({ name: 'RTX 3060 6G', totalMiB: 6 * 1024, line: 1 });
    expect(e.cuda?.value).toBe('11.2');
    expect(e.cudnn?.value).toBe('8.1');
  });
  it.each([
    ['驱动版本 472.12', { driver: '472.12' }],
    ['驱动版本：472.12', { driver: '472.12' }],
    ['显卡驱动：512.78（CUDA 11.6）', { driver: '512.78', driverCuda: '11.6' }],
    ['NVIDIA驱动版本:535.104.05', { driver: '535.104.05' }],
    ['系统：Windows 10', { os: 'Windows 10' }],
    ['操作系统：Ubuntu 20.04', { os: 'Ubuntu 20.04' }],
    ['系统环境：win10，python3.8', { os: 'win10', python: '3.8' }],
    ['CUDA 版本：11.2', { cuda: '11.2' }],
    ['CUDA版本是11.6', { cuda: '11.6' }],
    ['cuDNN版本是8.1.0', { cudnn: '8.1.0' }],
    ['CUDA/cuDNN 版本：11.2 / 8.1', { cuda: '11.2', cudnn: '8.1' }],
    ['Python 版本：3.8', { python: '3.8' }],
    ['python版本 3.9.7', { python: '3.9.7' }],
    ['TensorFlow 版本：2.10.0', { framework: 'tensorflow', frameworkVersion: '2.10.0' }],
    ['tf版本：2.6', { framework: 'tensorflow', frameworkVersion: '2.6' }],
    ['torch版本 1.12.1+cu113', { framework: 'pytorch', frameworkVersion: '1.12.1+cu113', buildCuda: '11.3' }],
    ['PyTorch 版本：1.5.0 (CUDA 10.2)', { framework: 'pytorch', frameworkVersion: '1.5.0', buildCuda: '10.2' }],
    ['框架：PaddlePaddle 2.5.2.post117', { framework: 'paddle', frameworkVersion: '2.5.2.post117', buildCuda: '11.7' }],
    ['飞桨版本：2.6', { framework: 'paddle', frameworkVersion: '2.6' }],
    ['安装方式：conda', { install: ['conda'] }],
    ['安装方式：conda env + pip (nvidia-cudnn wheel)', { install: ['conda', 'pip', 'wheel'] }],
    [
      '环境：Windows10 + CUDA11.2 + cuDNN8.1 + tensorflow-gpu2.6',
      { os: 'Windows10', cuda: '11.2', cudnn: '8.1', framework: 'tensorflow', frameworkVersion: '2.6' },
    ],
    ['操作系统：Ubuntu 20.04（WSL2）', { os: 'Ubuntu 20.04(WSL2)' }],
  ])('%s', (line, want) => {
    const p = plain(env(line));
    for (const [k, v] of Object.entries(want)) expect(p[k], k).toEqual(v);
  });
  it("PaddlePaddle's Chinese issue template, filled in: numbered lines, items glued to versions after one key", () => {
    const e = env(
      [
        '- 版本、环境信息：',
        '   1）PaddlePaddle版本：2.5.1',
        '   2）CPU：i7-12700',
        '   3）GPU：RTX 3060 CUDA11.2 CUDNN8.2',
        '   4）系统环境：Windows 10，Python 3.8',
      ].join('\n'),
    );
    expect(plain(e)).toMatchObject({
      framework: 'paddle',
      frameworkVersion: '2.5.1',
      cuda: '11.2',
      cudnn: '8.2',
      os: 'Windows 10',
      python: '3.8',
      gpus: [{ name: 'RTX 3060', cc: null, mib: null }],
    });
  });
  it('a GPU line, then its memory on the next line; a laptop part keeps "Laptop"', () => {
    expect(plain(env('GPU型号: GTX 1050Ti\n显存：4G')).gpus).toEqual([{ name: 'GTX 1050Ti', cc: null, mib: 4096 }]);
    expect(env('显卡：NVIDIA GeForce RTX 3060 笔记本（6G显存）').gpus[0]).toMatchObject({
      name: 'NVIDIA GeForce RTX 3060 (6G) Laptop GPU',
      totalMiB: 6144,
    });
    expect(env('显卡：GeForce GT 740 (compute capability 3.0)').gpus[0]!.computeCapability).toBe('3.0');
  });
  it("a Keras line that names TensorFlow gives TensorFlow's version, as the English reader does", () => {
    const zh = env('Keras 版本：tensorflow-gpu 1.13.1, keras 2.2.4');
    const enFacts = env('- Keras version: tensorflow-gpu 1.13.1, keras 2.2.4');
    expect(zh.frameworkVersion?.value).toBe('1.13.1');
    expect(plain(zh)).toEqual(plain(enFacts));
  });

  it('Chinese sentences that start like a key are not facts', () => {
    const e = env(
      [
        '系统找不到指定的路径。',
        '显卡不支持这个操作',
        'ImportError: DLL load failed: 找不到指定的模块。',
        '驱动程序出错了，请重启',
      ].join('\n'),
    );
    expect(plain(e)).toMatchObject({ os: null, driver: null, cuda: null, gpus: [] });
  });
  it('a note keeps its whole text and gives no facts of its own', () => {
    const e = env('备注：commenters had CUDA 10.2 or 11 installed system-wide');
    expect(e.cuda).toBeUndefined();
    expect(e.notes.map((n) => n.value)).toEqual(['commenters had CUDA 10.2 or 11 installed system-wide']);
  });
  it('the first sighting wins, across English and Chinese lines', () => {
    const e = env('- CUDA version: 10.1\nCUDA 版本：11.2\n显卡：RTX 2080');
    expect(e.cuda?.value).toBe('10.1');
    expect(e.gpus.map((g) => g.name)).toEqual(['RTX 2080']);
  });
});

describe('package lists and Paddle lines, in any locale', () => {
  it("conda list: the pytorch row names the build's CUDA and bundled cuDNN; the python row the interpreter", () => {
    const e = env(
      [
        '# packages in environment at C:\\Users\\张三\\anaconda3\\envs\\pt:',
        'pytorch                   1.12.1          py3.9_cuda11.3_cudnn8.3.2_0    pytorch',
        'python                    3.9.12               h6244533_0',
      ].join('\n'),
    );
    expect(plain(e)).toMatchObject({
      framework: 'pytorch',
      frameworkVersion: '1.12.1',
      buildCuda: '11.3',
      cudnn: '8.3.2',
      python: '3.9.12',
      os: 'Windows',
    });
  });
  it('paddlepaddle-gpu rows and requirement lines: the .postNNN build', () => {
    expect(plain(env('paddlepaddle-gpu          2.5.2.post117'))).toMatchObject({
      framework: 'paddle',
      frameworkVersion: '2.5.2.post117',
      buildCuda: '11.7',
    });
    expect(plain(env('paddlepaddle-gpu==2.6.1'))).toMatchObject({ framework: 'paddle', frameworkVersion: '2.6.1' });
    expect(plain(env('- PaddlePaddle version: 2.4.2'))).toMatchObject({
      framework: 'paddle',
      frameworkVersion: '2.4.2',
    });
  });
  it("Paddle's start-up banner: the driver's CUDA, the runtime, the cuDNN (real rendered lines)", () => {
    const e = env(
      [
        'W0522 14:31:24.082360  3337 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 7.5, Driver API Version: 11.6, Runtime API Version: 11.8',
        'W0522 14:31:24.083253  3337 gpu_resources.cc:164] device: 0, cuDNN Version: 8.9.',
      ].join('\n'),
    );
    expect(plain(e)).toMatchObject({ framework: 'paddle', driverCuda: '11.6', cuda: '11.8', cudnn: '8.9' });
  });
});

describe('the corpus reports with their environment blocks in English and in Chinese phrasing (bench/explain-zh-env.mjs)', () => {
  const dir = path.resolve(__dirname, '../fixtures/corpus/dev');
  const cases = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CorpusCase);
  it('the Chinese block uses Chinese labels and full-width colons, not the English template', () => {
    const zh = cases.map(envBlockZh).join('\n');
    expect(zh).not.toMatch(/System information|version:|Installed using/);
    expect(zh).toMatch(/显卡：/);
    expect(zh).toMatch(/驱动版本|显卡驱动/);
  });
  it('every report: the same facts and the same ranking from both blocks', () => {
    let compared = 0;
    for (const c of cases) {
      const en = explainText(`${c.log}\n${envBlock(c as Parameters<typeof envBlock>[0])}\n`);
      const zh = explainText(`${c.log}\n${envBlockZh(c)}\n`);
      expect(plain(zh.environment), c.id).toEqual(plain(en.environment));
      expect(
        zh.causes.map((x) => `${x.id} ${x.confidence}`),
        c.id,
      ).toEqual(en.causes.map((x) => `${x.id} ${x.confidence}`));
      if (Object.keys(c.env).length > 0) compared++;
    }
    expect(compared).toBeGreaterThan(60);
  });
});
