import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  condaFileName,
  markerExtra,
  normalizeName,
  parseCondaRecord,
  parseCoreMetadata,
  parseDistFolder,
  parseRequirement,
} from '../../src/gather/python/metadata.js';
import { comparePep440 as compareVersions, parseVersion, satisfies } from '../../src/base/pep440.js';
import { parseLiteral, readAssignments } from '../../src/gather/python/pyliteral.js';
import { metadata, tfBuildInfoPy, torchVersionPy } from './helpers.js';

describe('dist-info and METADATA', () => {
  it('splits folder names into normalised name and version', () => {
    expect(parseDistFolder('torch-2.11.0+cu130.dist-info')).toEqual({
      name: 'torch',
      version: '2.11.0+cu130',
      kind: 'dist-info',
    });
    expect(parseDistFolder('nvidia_cudnn_cu13-9.19.0.56.dist-info')).toEqual({
      name: 'nvidia-cudnn-cu13',
      version: '9.19.0.56',
      kind: 'dist-info',
    });
    expect(parseDistFolder('PyYAML-6.0.1-py3.11.egg-info')).toEqual({
      name: 'pyyaml',
      version: '6.0.1',
      kind: 'egg-info',
    });
    expect(parseDistFolder('mypkg.egg-info')).toEqual({ name: 'mypkg', version: null, kind: 'egg-info' });
    expect(parseDistFolder('torch')).toBeNull();
    expect(normalizeName('Nvidia_CuDNN.cu12')).toBe('nvidia-cudnn-cu12');
  });

  it('reads only the header block of METADATA', () => {
    const m = parseCoreMetadata(
      metadata('torch', '2.5.1', [
        'nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and platform_machine == "x86_64"',
        'filelock',
      ]),
    );
    expect(m.name).toBe('torch');
    expect(m.version).toBe('2.5.1');
    // The README line after the blank line that looks like a header is not a requirement.
    expect(m.requiresDist).toEqual([
      'nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and platform_machine == "x86_64"',
      'filelock',
    ]);
  });

  it('parses requirements with extras, parentheses and markers', () => {
    expect(parseRequirement('nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"')).toMatchObject({
      name: 'nvidia-cudnn-cu12',
      specifier: '<10.0,>=9.3.0.75',
      marker: 'extra == "and-cuda"',
    });
    expect(parseRequirement('jax-cuda12-plugin[with-cuda] (<=0.4.31,>=0.4.31) ; extra == "cuda12"')).toMatchObject({
      name: 'jax-cuda12-plugin',
      extras: ['with-cuda'],
      specifier: '<=0.4.31,>=0.4.31',
    });
    expect(markerExtra('sys_platform == "linux" and extra == "And_Cuda"')).toBe('and-cuda');
    expect(markerExtra('platform_system == "Linux"')).toBeNull();
  });

  it('reads conda-meta records and the dist-info folders they own', () => {
    const rec = parseCondaRecord(
      JSON.stringify({
        name: 'pytorch',
        version: '2.1.0',
        build: 'py3.11_cuda12.1_cudnn8.9.2_0',
        channel: 'https://conda.anaconda.org/pytorch/linux-64',
        depends: ['pytorch-cuda >=12.1,<12.2', 'python >=3.11,<3.12.0a0'],
        files: [
          'lib/python3.11/site-packages/torch-2.1.0-py3.11.egg-info/PKG-INFO',
          'lib/python3.11/site-packages/torch/__init__.py',
        ],
      }),
    );
    expect(rec).toMatchObject({
      name: 'pytorch',
      version: '2.1.0',
      build: 'py3.11_cuda12.1_cudnn8.9.2_0',
      distFolders: ['lib/python3.11/site-packages/torch-2.1.0-py3.11.egg-info'],
    });
    expect(parseCondaRecord('{"not": "a record"}')).toBeNull();
    expect(parseCondaRecord('garbage')).toBeNull();
    expect(condaFileName('cuda-cudart-12.1.105-0.json')).toBe('cuda-cudart');
    expect(condaFileName('cudnn-8.9.2.26-cuda12_0.json')).toBe('cudnn');
  });
});

describe('PEP 440 specifiers', () => {
  it.each([
    ['9.1.0.70', '==9.1.0.70', true],
    ['9.3.0.75', '==9.1.0.70', false],
    ['9.3.0.75', '<10.0,>=9.3.0.75', true],
    ['9.1.0.70', '<10.0,>=9.3.0.75', false],
    ['12.1.105', '==12.1.105', true],
    ['2.1.0+cu121', '==2.1.0', true],
    ['2.1.0+cu121', '==2.1.0+cu118', false],
    ['12.4.127', '==12.*', true],
    ['13.0.88', '==12.*', false],
    ['12.6.3', '~=12.6', true],
    ['13.0.0', '~=12.6', false],
    ['2.0.0rc1', '>=2.0.0', false],
    ['2.0.0.post1', '>2.0.0', false],
    ['0.4.31', '<=0.4.31,>=0.4.31', true],
    ['9.19.0.56', '>=9.8,!=9.10.0.1', true],
  ])('%s %s → %s', (v, spec, want) => {
    expect(satisfies(v, spec)).toBe(want);
  });

  it('says "cannot tell" for what it cannot parse', () => {
    expect(satisfies('not-a-version', '==1.0')).toBeNull();
    expect(satisfies('1.0', '=>1.0')).toBeNull();
  });

  it('orders release, pre, post and dev versions', () => {
    const order = ['1.0.dev1', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.post1', '1.0.1'];
    for (let i = 1; i < order.length; i++)
      expect(compareVersions(parseVersion(order[i - 1]!)!, parseVersion(order[i]!)!)).toBeLessThan(0);
  });

  it('compares as a total order on release versions (property)', () => {
    const ver = fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 4 }).map((a) => a.join('.'));
    fc.assert(
      fc.property(ver, ver, (a, b) => {
        const pa = parseVersion(a)!;
        const pb = parseVersion(b)!;
        // (+ 0 turns -0 into 0: "1.0" and "1" are equal versions)
        expect(Math.sign(compareVersions(pa, pb)) + 0).toBe(-Math.sign(compareVersions(pb, pa)) + 0);
        expect(satisfies(a, `>=${b}`)).toBe(compareVersions(pa, pb) >= 0);
      }),
    );
  });
});

describe('framework version files', () => {
  it("reads torch/version.py's typed assignments", () => {
    const a = readAssignments(torchVersionPy('2.11.0+cu130', '13.0'));
    expect(a.get('__version__')).toBe('2.11.0+cu130');
    expect(a.get('cuda')).toBe('13.0');
    expect(a.get('hip')).toBeNull();
    expect(a.get('debug')).toBe(false);
  });

  it("reads TensorFlow's build_info item assignments and the older dict literal", () => {
    const a = readAssignments(tfBuildInfoPy('12.5.1', '9', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']));
    expect(a.get('build_info.cuda_version')).toBe('12.5.1');
    expect(a.get('build_info.cuda_compute_capabilities')).toEqual(['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']);
    expect(a.get('build_info.is_cuda_build')).toBe(true);
    const old = readAssignments(
      "build_info = {\n    'cuda_version': '11.2',\n    # comment\n    'cudnn_version': '8',\n    'is_cuda_build': True,\n}\n",
    );
    expect(old.get('build_info.cuda_version')).toBe('11.2');
    expect(old.get('build_info.is_cuda_build')).toBe(true);
  });

  it('skips what is not a literal', () => {
    const a = readAssignments('__version__ = _get_version()\n_version: str = "0.4.30"\n  indented = 1\n');
    expect(a.has('__version__')).toBe(false);
    expect(a.get('_version')).toBe('0.4.30');
    expect(a.has('indented')).toBe(false);
    expect(parseLiteral("'a' 'b'")).toBe('ab');
    expect(parseLiteral('[1, (2, 3), {"k": None}]')).toEqual([1, [2, 3], { k: null }]);
    expect(parseLiteral('foo(1)')).toBeUndefined();
  });
});
