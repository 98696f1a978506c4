// Pure pieces: /proc/PID/maps, package records, versions and library families, the framework data table,
// and the checks on hand-made library sections (conda/pip mix, missing library, LLP shadowing of own copy).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conda_pip_section, baseSnapshot } from './units-data.js';
import { parseMaps } from '../../src/gather/libraries/maps.js';
import { parseDistInfoName, parseRecord } from '../../src/gather/libraries/packages.js';
import {
  compareVersions,
  libraryFamily,
  parseCudnnHeader,
  versionFromFileName,
  versionFromPackage,
} from '../../src/base/versions.js';
import { globToRegExp } from '../../src/gather/libraries/frameworks.js';
import { x86HwcapsFromCpuinfo } from '../../src/gather/libraries/platform.js';
import { originOf } from '../../src/gather/libraries/inventory.js';
import data from '../../src/knowledge/libraries/frameworks.json' with { type: 'json' };
import { missingCheck } from '../../src/judge/checks/libraries/missing.js';
import { ldLibraryPathCheck } from '../../src/judge/checks/libraries/ld-library-path.js';
import { duplicateVersionsCheck } from '../../src/judge/checks/libraries/duplicate-versions.js';
import { FIXTURES } from '../helpers/fake-bin.js';

describe('maps, packages, versions', () => {
  it('parses /proc/PID/maps lines into unique library paths (the H200 torch process list)', () => {
    const listed = fs
      .readFileSync(path.join(FIXTURES, 'h200/hog/procinfo.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('/') && l.includes('.so'));
    const maps = listed.flatMap((p, i) => [
      `7f${i}000-7f${i}fff r--p 00000000 103:02 ${100 + i}   ${p}`,
      `7f${i}fff-7f${i + 1}000 r-xp 00001000 103:02 ${100 + i}   ${p}`,
    ]);
    maps.push(
      '7ffd000-7ffe000 rw-p 00000000 00:00 0                          [stack]',
      '7ff0000-7ff1000 rw-s 00000000 00:05 77   /dev/nvidia0',
      '7ff1000-7ff2000 r-xp 00000000 08:01 9 /tmp/gone/libx.so.1 (deleted)',
    );
    const out = parseMaps(maps.join('\n'));
    expect(out.slice(0, listed.length)).toEqual(listed);
    expect(out).toContain('/tmp/gone/libx.so.1');
    expect(out).not.toContain('/dev/nvidia0');
    expect(out.filter((p) => libraryFamily(path.basename(p)) === 'libcudnn')).toEqual([
      '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9',
    ]);
  });
  it('reads dist-info names and RECORD lines (quoted paths too)', () => {
    expect(parseDistInfoName('nvidia_cudnn_cu13-9.19.0.56.dist-info')).toEqual({
      name: 'nvidia-cudnn-cu13',
      version: '9.19.0.56',
    });
    expect(parseRecord('nvidia/cudnn/lib/libcudnn.so.9,sha256=x,1\n"odd,name/lib.so",sha256=y,2\n')).toEqual([
      'nvidia/cudnn/lib/libcudnn.so.9',
      'odd,name/lib.so',
    ]);
  });
  it('knows library families and versions from names, headers and packages', () => {
    expect(libraryFamily('libcudnn_engines_runtime_compiled.so.9.14.0')).toBe('libcudnn_engines_runtime_compiled');
    expect(libraryFamily('libcudart.faf08d9a.so.13')).toBe('libcudart');
    expect(libraryFamily('libcublasLt.so.13')).toBe('libcublasLt');
    expect(libraryFamily('libcudadebugger.so.1')).toBeNull();
    expect(libraryFamily('libtorch_cuda.so')).toBeNull();
    expect(versionFromFileName('libcuda.so.580.95.05')).toBe('580.95.05');
    expect(versionFromFileName('libcudnn.so.9')).toBeNull();
    expect(parseCudnnHeader('#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n')).toBe(
      '9.19.0',
    );
    expect(versionFromPackage('libcudnn', '9.19.0.56')).toBe('9.19.0');
    expect(versionFromPackage('libcublas', '13.1.0.3')).toBe('13.1.0.3');
    expect(compareVersions('580.95.05', '580.159.04')).toBeLessThan(0);
    expect(compareVersions('9.9.0', '9.14.0')).toBeLessThan(0);
  });
  it("classifies origins and CPU levels; torch's globs match the H200 file names", () => {
    expect(originOf('/usr/local/cuda-13.0/compat/libcuda.so.580.95.05', [], [])).toBe('compat');
    expect(originOf('/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96', [], [])).toBe('toolkit');
    expect(originOf('/opt/conda/envs/a/lib/libcudnn.so.8', [], ['/opt/conda/envs/a'])).toBe('conda');
    expect(originOf('/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0', [], [])).toBe('system');
    expect(x86HwcapsFromCpuinfo('flags : sse4_2 ssse3 sse4_1 popcnt cx16 lahf_lm avx2')).toEqual(['x86-64-v2']);
    const spNvidia = fs
      .readFileSync(path.join(FIXTURES, 'h200/idle/sp-nvidia.txt'), 'utf8')
      .split('\n')
      .map((l) => path.basename(l));
    for (const row of data.torchPreload.rows) {
      const re = globToRegExp(row.pattern);
      expect(
        spNvidia.some((n) => re.test(n)),
        row.pattern,
      ).toBe(true);
    }
    expect(globToRegExp('libcudnn.so.*[0-9]').test('libcudnn.so.9')).toBe(true);
    expect(globToRegExp('libcublas.so.*[0-9]').test('libcublasLt.so.13')).toBe(false);
    for (const group of Object.values(data)) expect(group.source.length).toBeGreaterThan(40);
  });
});

describe('library checks on hand-made sections', () => {
  it('libs.missing: a NEEDED library that is nowhere is an error; one outside the search path gets the folder to add', () => {
    const s = conda_pip_section();
    const f = missingCheck.evaluate(baseSnapshot(s));
    expect(f.map((x) => [x.severity, x.rootCause, x.message])).toEqual([
      ['error', 'library_missing', 'TensorFlow: libcudnn.so.8 is not found (needed by libtensorflow_framework.so.2)'],
    ]);
    expect(f[0]!.fix!.commands).toEqual([
      'export LD_LIBRARY_PATH=/opt/cudnn8/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}',
    ]);
  });
  it("libs.ld-library-path-shadowing: an older cuBLAS from LD_LIBRARY_PATH over the framework's own; fix keeps the other folders", () => {
    const f = ldLibraryPathCheck.evaluate(baseSnapshot(conda_pip_section()));
    expect(f).toHaveLength(1);
    // What an older cuBLAS does to the build is not known from the files: a warning with a "possible" consequence.
    expect(f[0]).toMatchObject({ severity: 'warn', rootCause: 'library_conflict' });
    expect(f[0]!.consequences).toEqual([expect.objectContaining({ outcome: 'unknown', certainty: 'possible' })]);
    expect(f[0]!.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64']);
    expect(duplicateVersionsCheck.evaluate(baseSnapshot(conda_pip_section())).filter((x) => x.status !== 'ok')).toEqual(
      [],
    );
  });
});
