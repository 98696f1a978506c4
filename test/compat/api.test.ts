// The compat API: spec parsing, versions, drivers, compute capabilities, GPU names, framework builds.
// Table-driven from the knowledge rows wherever a rule can be stated over every row.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as api from '../../src/judge/compat/api.js';
import { UsageError } from '../../src/base/errors.js';
import { knowledge } from '../../src/knowledge/index.js';

describe('parseSpec', () => {
  test.each([
    ['tensorflow==2.12', { framework: 'tensorflow', version: '2.12' }],
    ['torch==2.1.0+cu121', { framework: 'torch', version: '2.1.0', variant: 'cu121' }],
    ['jax[cuda12]==0.4.30', { framework: 'jax', version: '0.4.30', variant: 'cuda12' }],
    ['jax[cuda12_pip]==0.4.20', { framework: 'jax', version: '0.4.20', variant: 'cuda12' }],
    ['tensorflow[and-cuda]==2.15.*', { framework: 'tensorflow', version: '2.15', variant: 'and-cuda' }],
    ['tensorflow-gpu==1.15', { framework: 'tensorflow', version: '1.15' }],
    ['PyTorch 2.3', { framework: 'torch', version: '2.3' }],
    ['torch==2.4.1+cpu', { framework: 'torch', version: '2.4.1', variant: 'cpu' }],
  ])('%s', (text, want) => {
    expect(api.parseSpec(text)).toEqual({ ...want, raw: text });
  });
  test.each(['', 'torch', 'torch==', 'foo==1.0', 'torch==abc', 'torch==2.1.0+banana', '==2.1'])(
    'rejects %j with a one-line UsageError',
    (text) => {
      let err: unknown;
      try {
        api.parseSpec(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).not.toContain('\n');
    },
  );
});

describe('versions', () => {
  test.each([
    ['12.10', '12.9', 1],
    ['12.4', '12.4.0', 0],
    ['2.1.0+cu121', '2.1.0', 0],
    ['2.0.0rc1', '2.0.0', -1],
    ['580.159.04', '580.65.06', 1],
    ['9.1.0.70', '9.10.2.21', -1],
  ])('compareVersions(%s, %s) = %d', (a, b, want) => {
    expect(api.compareVersions(a, b)).toBe(want);
  });
  test('compareVersions is antisymmetric and agrees with numeric tuples', () => {
    const ver = fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(ver, ver, (a, b) => {
        const c = api.compareVersions(a.join('.'), b.join('.'));
        expect(c).toBe(-api.compareVersions(b.join('.'), a.join('.')) || 0);
        const n = Math.max(a.length, b.length);
        const pa = [...a, ...Array(n - a.length).fill(0)];
        const pb = [...b, ...Array(n - b.length).fill(0)];
        const i = pa.findIndex((x, k) => x !== pb[k]);
        expect(c).toBe(i === -1 ? 0 : Math.sign(pa[i] - pb[i]));
      }),
    );
  });
  test.each([
    ['3.11', '>=3.8,<3.12', true],
    ['3.12', '>=3.8,<3.12', false],
    ['2.15.1', '==2.15.*', true],
    ['2.16.0', '==2.15.*', false],
    ['2.15.3', '~=2.15.0', true],
    ['12.10', '>=12.9', true],
    ['9.12.0.46', '>=9.12.0.46,<10', true],
  ])('versionInRange(%s, %s) = %s', (v, r, want) => {
    expect(api.versionInRange(v, r)).toBe(want);
  });
  test('a malformed range is a UsageError', () => {
    expect(() => api.versionInRange('1.0', '>=banana')).toThrow(UsageError);
  });
});

describe('drivers', () => {
  test('every toolkit row: its own driver runs it, and nvidia-smi would call it at least that CUDA', () => {
    for (const r of knowledge().cudaDriver.toolkits) {
      for (const os of ['linux', 'windows'] as const) {
        const d = r[os];
        if (!d) continue;
        expect(api.compareVersions(api.maxCudaForDriver(d, os)!, r.cuda), `${r.release} ${os}`).toBeGreaterThanOrEqual(
          0,
        );
        expect(api.driverRunsCuda(d, r.version, os), `${r.release} ${os}`).toBe(true);
      }
    }
  });
  test.each([
    ['12.4', 'linux', '525.60.13', '550.54.14', true],
    ['12.4.1', 'linux', '525.60.13', '550.54.15', true],
    ['11.8', 'windows', '452.39', '520.06', true],
    ['13.0', 'linux', '580.65.06', '580.65.06', false],
    ['10.2', 'linux', '440.33', '440.33', false],
    ['11.0', 'linux', '450.36.06', '450.36.06', false],
  ] as const)('minDriverForCuda(%s, %s) = min %s, full %s, minor compat %s', (cuda, os, min, full, compat) => {
    const r = api.minDriverForCuda(cuda, os);
    expect([r.min, r.full, r.minorVersionCompat]).toEqual([min, full, compat]);
    expect(r.sources.length).toBeGreaterThan(0);
  });
  test('minor-version compatibility: every 12.x runs on 525.60.13, no 13.x does', () => {
    for (const r of knowledge().cudaDriver.toolkits.filter((t) => t.cuda.startsWith('12.')))
      expect(api.driverRunsCuda('525.60.13', r.cuda)).toBe(true);
    for (const r of knowledge().cudaDriver.toolkits.filter((t) => t.cuda.startsWith('13.')))
      expect(api.driverRunsCuda('575.57.08', r.cuda)).toBe(false);
    expect(api.cudaMajorsForDriver('535.104.05')).toEqual([11, 12]);
  });
  test.each([
    ['580.159.04', '13.0'],
    ['470.82.01', '11.4'],
    ['535.104.05', '12.2'],
    ['418.39', '10.1'],
    ['300.1', null],
  ])('maxCudaForDriver(%s) = %s', (d, want) => {
    expect(api.maxCudaForDriver(d)).toBe(want);
  });
  test('a driver that is not a version is a UsageError', () => {
    expect(() => api.maxCudaForDriver('latest')).toThrow(UsageError);
  });
});

describe('compute capabilities', () => {
  test('every architecture row: its first CUDA targets it, the toolkit before does not, the one after its last does not', () => {
    const d = knowledge().computeCapability;
    const toolkits = d.toolkits.map((t) => t.cuda).sort(api.compareVersions);
    for (const a of d.architectures) {
      if (!a.firstCuda || !toolkits.includes(a.firstCuda)) continue;
      expect(api.cudaSupportsComputeCapability(a.firstCuda, a.computeCapability), `${a.sm} in ${a.firstCuda}`).toBe(
        true,
      );
      const before = toolkits[toolkits.indexOf(a.firstCuda) - 1];
      if (before)
        expect(api.cudaSupportsComputeCapability(before, a.computeCapability), `${a.sm} in ${before}`).toBe(false);
      if (a.lastCuda) {
        const after = toolkits[toolkits.indexOf(a.lastCuda) + 1];
        if (after)
          expect(api.cudaSupportsComputeCapability(after, a.computeCapability), `${a.sm} in ${after}`).toBe(false);
      }
    }
  });
  test.each([
    ['11.0', 'sm_86', false],
    ['11.1', '8.6', true],
    ['11.7', '9.0', false],
    ['11.8', 'sm_90', true],
    ['12.6', '12.0', false],
    ['12.8', 'sm_120', true],
    ['11.8', '3.5', true],
    ['12.0', '3.7', false],
    ['12.9', '7.0', true],
    ['13.0', '7.0', false],
    ['13.0', '6.1', false],
    ['13.0', '8.7', true],
    ['13.0', '7.5', true],
  ])('cudaSupportsComputeCapability(%s, %s) = %s', (cuda, cc, want) => {
    expect(api.cudaSupportsComputeCapability(cuda, cc)).toBe(want);
  });
  test.each([
    ['8.9', ['8.0', '8.6'], [], 'sass-compatible', '8.6'],
    ['9.0', ['8.0', '8.6'], ['8.0'], 'ptx-jit', '8.0'],
    ['10.0', ['9.0'], [], 'none', null],
    ['12.0', ['7.5', '8.0', '8.6', '9.0', '10.0', '12.0'], [], 'sass', '12.0'],
    ['7.0', ['7.5', '8.0'], ['12.0'], 'none', null],
  ])('archCoverage(%s, %j, %j) = %s via %s', (cc, sass, ptx, kind, via) => {
    expect(api.archCoverage(cc, sass, ptx)).toEqual({ kind, via });
  });
});

describe('GPU names', () => {
  test('every phrase of the table maps to its row, also as nvidia-smi writes it (NVIDIA GeForce …, upper case)', () => {
    for (const p of knowledge().gpus.products) {
      for (const n of p.names) {
        expect(api.computeCapabilityOfGpu(n), n).toBe(p.computeCapability);
        expect(api.computeCapabilityOfGpu(`NVIDIA GeForce ${n.toUpperCase()}`), n).toBe(p.computeCapability);
      }
    }
  });
  test.each([
    ['NVIDIA GeForce RTX 3090', '8.6'],
    ['RTX 3090', '8.6'],
    ['Tesla V100-SXM2-16GB', '7.0'],
    ['A100', '8.0'],
    ['NVIDIA A100-SXM4-80GB', '8.0'],
    ['NVIDIA A10G', '8.6'],
    ['H200', '9.0'],
    ['NVIDIA H100 80GB HBM3', '9.0'],
    ['GTX 1080 Ti', '6.1'],
    ['GeForce GTX1080Ti', '6.1'],
    ['RTX 5090', '12.0'],
    ['NVIDIA GeForce RTX 4090 Laptop GPU', '8.9'],
    ['B200', '10.0'],
    ['NVIDIA RTX 6000 Ada Generation', '8.9'],
    ['Quadro RTX 6000', '7.5'],
    ['NVIDIA RTX A6000', '8.6'],
    ['NVIDIA RTX PRO 6000 Blackwell Server Edition', '12.0'],
    ['Tesla K80', '3.7'],
    ['Tesla T4', '7.5'],
    ['NVIDIA TITAN X', '6.1'],
    ['GeForce GTX TITAN X', '5.2'],
    ['Matrox G200', null],
    ['', null],
  ])('computeCapabilityOfGpu(%j) = %s', (name, want) => {
    expect(api.computeCapabilityOfGpu(name)).toBe(want);
  });
});

describe('framework builds', () => {
  test('tensorflowBuild: the contract example and the Windows GPU end', () => {
    const b = api.tensorflowBuild('2.12')!;
    expect([b.version, b.cuda, b.cudnn, b.python]).toEqual(['2.12.0', '11.8', '8.6', ['3.8', '3.9', '3.10', '3.11']]);
    expect(api.tensorflowBuild('2.10', 'windows')!.gpu).toBe(true);
    expect(api.tensorflowBuild('2.11', 'windows')!.gpu).toBe(false);
    expect(api.tensorflowBuild('2.16.2')!.assumedFrom).toBe('2.16.1');
    expect(api.tensorflowBuild('3.0')).toBeNull();
  });
  test('torchBuild: variants, bundled cuDNN, architectures', () => {
    const b = api.torchBuild('2.1.0', 'cu121')!;
    expect([b.variant!.cuda, b.variant!.cudnn, b.variant!.sass]).toEqual([
      '12.1',
      '8.9.2.26',
      ['5.0', '6.0', '7.0', '7.5', '8.0', '8.6', '9.0'],
    ]);
    expect(api.torchBuild('2.1.0', 'cu126')).toBeNull();
    expect(api.torchBuild('2.11.0', 'cu130')!.variant!.ptx).toEqual([]);
    expect(api.torchBuild('2.7.0', 'cu128')!.variant!.sass).toContain('12.0');
    expect(api.torchBuild('2.11.1', 'cu126')!.assumedFrom).toBe('2.11.0');
  });
  test('jaxRequirements: plugins, minimums, and a patch newer than the data', () => {
    const j = api.jaxRequirements('0.4.30', 'cuda12')!;
    expect(j.variants.map((v) => [v.name, v.minCuda, v.minCudnn, v.minComputeCapability, v.plugin])).toEqual([
      ['cuda12', '12.1', '9.0', '5.2', true],
    ]);
    const n = api.jaxRequirements('0.11.2')!;
    expect(n.assumedFrom).toBe('0.11.0');
    expect(n.variants.map((v) => v.name)).toEqual(['cuda12', 'cuda13']);
    expect(api.jaxRequirements('0.12.0')).toBeNull();
    expect(api.jaxRequirements('0.4.30', 'cuda13')).toBeNull();
  });
  test('requirementsFor: the contract shape for the three spec forms', () => {
    const tf = api.requirementsFor('tensorflow==2.12');
    expect(tf).toMatchObject({
      framework: 'tensorflow',
      version: '2.12.0',
      requires: {
        cuda: ['11.8'],
        cudnn: ['8.6'],
        driverMin: { linux: '450.80.02', windows: '452.39' },
        python: ['3.8', '3.9', '3.10', '3.11'],
      },
    });
    const t = api.requirementsFor('torch==2.1.0+cu121');
    expect(t.requires).toEqual({
      cuda: ['12.1'],
      cudnn: ['8.9.2.26'],
      driverMin: { linux: '525.60.13', windows: '527.41' },
      python: ['3.8', '3.9', '3.10', '3.11'],
      computeCapabilities: ['5.0', '6.0', '7.0', '7.5', '8.0', '8.6', '9.0'],
    });
    const j = api.requirementsFor('jax[cuda12]==0.4.30');
    expect(j.requires).toEqual({
      cuda: ['>=12.1,<13'],
      cudnn: ['>=9.0,<10'],
      driverMin: { linux: '525.60.13', windows: '527.41' },
      python: ['>=3.9'],
      computeCapabilities: ['>=5.2'],
    });
    for (const r of [tf, t, j]) expect(r.sources.length).toBeGreaterThan(1);
  });
  test('requirementsFor: unknown versions and variants are one-line UsageErrors naming what is known', () => {
    expect(() => api.requirementsFor('torch==9.9')).toThrow(/known: 1\.0\.0 to 2\.14\.0/);
    expect(() => api.requirementsFor('torch==2.1.0+cu126')).toThrow(/builds: cu118, cu121/);
    expect(() => api.requirementsFor('jax[cuda13]==0.4.30')).toThrow(UsageError);
  });
  test('every torch release × variant yields requirements whose driver floor is its CUDA major floor (or toolkit driver before 11)', () => {
    for (const r of knowledge().pytorch.releases) {
      for (const v of r.variants) {
        const q = api.requirementsFor(`torch==${r.version}+${v.name}`);
        expect(q.requires.driverMin.linux, `${r.version}+${v.name}`).toBe(api.minDriverForCuda(v.cuda, 'linux').min);
        expect(q.requires.driverMin.linux).not.toBeNull();
      }
    }
  });
});
