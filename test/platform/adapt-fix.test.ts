// Fixes made right for where the job ran: unchanged on Linux, bash with the Windows host's driver under WSL2,
// cmd and PowerShell lines, DLL providers and TensorFlow's native-Windows limit on Windows. The explain and
// check paths are tested end to end (built CLI) in windows-cli.test.ts.
import { describe, expect, test } from 'vitest';
import { adaptFix } from '../../src/judge/platform/adapt-fix.js';
import { platformOfLog, platformOfSnapshot } from '../../src/judge/platform/detect.js';
import {
  dllInfo,
  dllNamesIn,
  tensorflowHasWindowsGpu,
  tensorflowOnWindows,
  windowsDriverFor,
} from '../../src/judge/platform/windows.js';
import { knowledge } from '../../src/knowledge/index.js';
import { h200 } from '../compat/helpers.js';

describe('where the job ran', () => {
  test.each([
    ['Windows 10', [], 'windows'],
    ['win10', [], 'windows'],
    ['Windows 11 Pro', [], 'windows'],
    ['Ubuntu 20.04 (WSL2)', [], 'wsl'],
    ['Windows (WSL2)', [], 'wsl'],
    ['Windows Subsystem for Linux', [], 'wsl'],
    ['Ubuntu 22.04', [], null],
    [undefined, ['  File "C:\\Users\\张三\\项目\\train.py", line 42, in <module>'], 'windows'],
    [undefined, ["Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"], 'windows'],
    [
      undefined,
      [
        'RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)',
      ],
      'windows',
    ],
    [undefined, ['Linux version 5.15.90.1-microsoft-standard-WSL2'], 'wsl'],
    [undefined, ['  File "/home/u/train.py", line 3'], null],
  ] as const)('os %s, lines %j → %s', (os, lines, want) => {
    expect(platformOfLog(os, lines)).toBe(want);
  });
  test('a snapshot: its OS line, then WSL detection', () => {
    const s = h200();
    expect(platformOfSnapshot(s)).toBe('linux');
    expect(platformOfSnapshot({ system: { ...s.system, wsl: true } })).toBe('wsl');
    expect(platformOfSnapshot({ system: { ...s.system, os: 'Microsoft Windows 11 Pro' } })).toBe('windows');
  });
});

describe('the Windows data', () => {
  test('DLL names map to their CUDA or cuDNN major; rows recalled rather than read say so', () => {
    expect(dllInfo("'cudart64_110.dll'")).toMatchObject({ library: 'CUDA runtime', cudaMajor: '11' });
    expect(dllInfo('cudnn64_8.dll')).toMatchObject({ library: 'cuDNN', cudnnMajor: '8', confidence: 'read' });
    expect(dllInfo('CUBLAS64_11.DLL')).toMatchObject({ library: 'cuBLAS', cudaMajor: '11' });
    expect(dllInfo('zlibwapi.dll')!.version).toMatch(/cuDNN 8\.3/);
    expect(dllInfo('libcudnn.so.8')).toBeNull();
    for (const d of knowledge().windows.dlls) {
      if (d.confidence === 'recalled') expect(d.source).toMatch(/recalled/);
      if (d.cudaMajor)
        expect(d.version).toContain(
          `CUDA ${d.cudaMajor === '11' && /^(cufft|curand)/.test(d.dll) ? '10' : d.cudaMajor}`,
        );
    }
  });
  test('DLL names are found in log lines, once each, in order', () => {
    expect(
      dllNamesIn([
        "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
        'Could not locate zlibwapi.dll.',
      ]),
    ).toEqual(['cudart64_110.dll', 'zlibwapi.dll']);
  });
  test('TensorFlow: 2.10 is the last native-Windows GPU release, with CUDA 11.2 and cuDNN 8.1 (from the TF Windows rows)', () => {
    expect(tensorflowOnWindows()).toMatchObject({ lastGpu: '2.10', cuda: '11.2', cudnn: '8.1' });
    expect(tensorflowOnWindows().commands).toEqual([
      'conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0',
      'python -m pip install "tensorflow<2.11"',
    ]);
    expect(tensorflowHasWindowsGpu('2.10.1')).toBe(true);
    expect(tensorflowHasWindowsGpu('2.11.0')).toBe(false);
    expect(tensorflowHasWindowsGpu(undefined)).toBeNull();
  });
  test('Windows driver numbers of the Linux minimums come from the same CUDA rows', () => {
    expect(windowsDriverFor('525.60.13')).toBe('527.41');
    expect(windowsDriverFor('450.80.02')).toBe('452.39');
    expect(windowsDriverFor('1.2.3')).toBeNull();
  });
});

describe('adaptFix', () => {
  const tfGrowth = { text: 'Enable memory growth.', commands: ['export TF_FORCE_GPU_ALLOW_GROWTH=true'] };
  test('Linux: the same object back', () => {
    expect(adaptFix(tfGrowth, 'linux')).toBe(tfGrowth);
  });
  test('Windows: export beside set (cmd) and $env: (PowerShell), and a sentence saying which is which', () => {
    const f = adaptFix(tfGrowth, 'windows', { cause: 'framework_preallocation', family: 'tf' });
    expect(f.commands).toEqual([
      'export TF_FORCE_GPU_ALLOW_GROWTH=true',
      'set TF_FORCE_GPU_ALLOW_GROWTH=true',
      '$env:TF_FORCE_GPU_ALLOW_GROWTH="true"',
    ]);
    expect(f.text).toMatch(/`set` lines are for cmd \(Anaconda Prompt\), the `\$env:` lines for PowerShell/);
  });
  test('Windows: kill becomes taskkill, ps becomes tasklist, in commands and by-hand steps', () => {
    const f = adaptFix(
      {
        text: 'End it.',
        commands: ['ps -o pid,ppid,user,etime,stat,cmd -p 666'],
        manual: [
          'kill 666',
          'kill 637    # only if process 637 is yours and no longer needed (check with: ps -o pid,user,etime,cmd -p 637)',
        ],
      },
      'windows',
      { cause: 'memory_held_by_other_process' },
    );
    expect(f.commands).toEqual(['tasklist /V /FI "PID eq 666"']);
    expect(f.manual).toEqual([
      'taskkill /PID 666 /F',
      'taskkill /PID 637 /F    # only if process 637 is yours and no longer needed (check with: tasklist /V /FI "PID eq 637")',
    ]);
  });
  test("Windows: a missing DLL gets what provides it, conda's Library\\bin and where.exe; ldconfig and LD_LIBRARY_PATH go", () => {
    const f = adaptFix(
      {
        text: "A library the framework needs (cudnn64_8.dll) is not on the loader's path. Add its folder to LD_LIBRARY_PATH (PATH on Windows).",
        commands: [
          "ldconfig -p | grep -E 'cudnn64_8.dll'",
          'pip install nvidia-cudnn-cu12    # or: conda install -c conda-forge cudnn',
        ],
      },
      'windows',
      { cause: 'library_missing', dlls: ['cudnn64_8.dll'] },
    );
    expect(f.text).toMatch(/Add its folder to PATH\./);
    expect(f.text).not.toMatch(/LD_LIBRARY_PATH \(/);
    expect(f.text).toMatch(/cudnn64_8\.dll is cuDNN \(cuDNN 8\.x\): conda install -c conda-forge cudnn=8/);
    expect(f.text).toMatch(/%CONDA_PREFIX%\\Library\\bin/);
    expect(f.commands[0]).toBe('where.exe cudnn64_8.dll');
    expect(f.commands.join('\n')).not.toMatch(/ldconfig|#/);
  });
  test('Windows: tensorflow[and-cuda] (Linux only) becomes TensorFlow 2.10 with CUDA 11.2 / cuDNN 8.1, or WSL2', () => {
    const f = adaptFix(
      { text: 'Install the matching CUDA.', commands: ['nvcc --version', 'pip install "tensorflow[and-cuda]"'] },
      'windows',
      { cause: 'cuda_toolkit_mismatch', family: 'tf' },
    );
    expect(f.commands).toEqual([
      'nvcc --version',
      'conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0',
      'python -m pip install "tensorflow<2.11"',
    ]);
    expect(f.text).toMatch(/TensorFlow 2\.11 and later run on the GPU only under WSL2/);
  });
  test('Windows: a TensorFlow with a native GPU build gets the CUDA and cuDNN it was tested with on Windows (TF 2.1: 10.1 / 7.6)', () => {
    const f = adaptFix(
      {
        text: 'Install cuDNN 7.6. Check which copy loads with gpu-env-doctor libs.',
        commands: ['pip install "tensorflow[and-cuda]"    # TF 2.14+: brings matching CUDA and cuDNN wheels'],
      },
      'windows',
      { cause: 'cudnn_version_mismatch', family: 'tf', frameworkVersion: '2.1' },
    );
    expect(f.commands).toEqual(['conda install -c conda-forge cudatoolkit=10.1 cudnn=7.6']);
    expect(f.text).toMatch(/where\.exe cudnn64_\*\.dll lists the copies on PATH/);
    expect(f.text).toMatch(/TensorFlow 2\.1 on Windows was tested with CUDA 10\.1 and cuDNN 7\.6/);
  });
  test('Windows: TensorFlow 2.12 with a cuDNN mismatch: no cuDNN install can help it there', () => {
    const f = adaptFix(
      { text: 'Install cuDNN 8.6.', commands: ['pip install "nvidia-cudnn-cu12==8.6.*"    # cu11 for CUDA 11 builds'] },
      'windows',
      { cause: 'cudnn_version_mismatch', family: 'tf', frameworkVersion: '2.12.0' },
    );
    expect(f.commands).toEqual([
      'conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0',
      'python -m pip install "tensorflow<2.11"',
    ]);
  });
  test("Windows: pip's nvidia-cudnn wheel is not on PATH; conda's cudnn (Library\\bin) is", () => {
    const f = adaptFix(
      { text: 'x', commands: ['pip install "nvidia-cudnn-cu12==8.9.*"    # cu11 for CUDA 11 builds'] },
      'windows',
      { cause: 'cudnn_version_mismatch', family: 'torch' },
    );
    expect(f.commands).toEqual(['conda install -c conda-forge cudnn=8.9']);
  });
  test('Windows: JAX has no native CUDA wheels; expandable_segments is not on Windows', () => {
    const j = adaptFix(
      { text: 'x', commands: ['pip install -U "jax[cuda12]"    # CUDA and cuDNN as pip wheels, matched to jaxlib'] },
      'windows',
      { cause: 'cuda_toolkit_mismatch', family: 'jax' },
    );
    expect(j.commands).toEqual([]);
    expect(j.text).toMatch(/Linux only: on Windows run it under WSL2/);
    const t = adaptFix(
      { text: 'Smaller batch.', commands: ['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True'] },
      'windows',
      { cause: 'gpu_memory_exhausted', family: 'torch' },
    );
    expect(t.commands).toEqual([]);
    expect(t.text).toMatch(/expandable_segments .* not available on Windows/);
  });
  test('Windows: bash-only diagnostics are translated or dropped, never left half-working', () => {
    const f = adaptFix(
      {
        text: 'x',
        commands: [
          'echo "$LD_LIBRARY_PATH"',
          'unset LD_LIBRARY_PATH    # for this shell; then rerun',
          'gpu-env-doctor libs',
          'sudo dmesg | grep -i -E "NVRM|Xid"',
          'nvidia-smi -q -d ECC,PAGE_RETIREMENT',
          'pip list 2>/dev/null | grep -i -E "torch|tensorflow|jax"',
        ],
      },
      'windows',
      { cause: 'library_conflict' },
    );
    expect(f.commands).toEqual([
      'where.exe cudnn64_*.dll cudart64_*.dll',
      'echo PATH=%PATH%',
      'echo "PATH=$env:PATH"',
      'nvidia-smi -q -d ECC,PAGE_RETIREMENT',
      'pip list | findstr /i "torch tensorflow jax paddle"',
    ]);
  });
  test('Windows: driver steps in Windows terms, with the Windows driver number', () => {
    const f = adaptFix(
      {
        text: 'Update the driver.',
        commands: ['nvidia-smi'],
        manual: [
          'Or upgrade the NVIDIA driver to 525.60.13 or newer, then reboot.',
          "sudo apt install nvidia-driver-525   # or newer branch; use your distribution's driver packages",
          'sudo reboot',
        ],
      },
      'windows',
      { cause: 'driver_too_old' },
    );
    expect(f.manual).toEqual([
      'Or upgrade the NVIDIA driver to 525.60.13 (Linux) / 527.41 (Windows) or newer, then reboot.',
      'Install a newer NVIDIA driver for Windows from nvidia.com (or the NVIDIA App / GeForce Experience) (branch 525 or newer), then restart Windows.',
      'Restart Windows (a driver update or a driver reset needs it).',
    ]);
  });
  test('WSL2: bash stays; the driver is updated on Windows, never inside WSL', () => {
    const f = adaptFix(
      {
        text: 'Update the driver.',
        commands: ['nvidia-smi'],
        manual: ['sudo apt install nvidia-driver-550', 'sudo reboot'],
      },
      'wsl',
      { cause: 'driver_too_old' },
    );
    expect(f.commands).toEqual(['nvidia-smi']);
    expect(f.manual).toEqual([
      'On Windows (not inside WSL): install or update the NVIDIA driver from nvidia.com, then restart WSL from a Windows prompt: wsl --shutdown',
    ]);
    expect(f.text).toMatch(/do not install a Linux NVIDIA driver inside WSL/);
    const mem = { text: 'Smaller batch.', commands: ['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True'] };
    expect(adaptFix(mem, 'wsl', { cause: 'gpu_memory_exhausted' })).toBe(mem);
  });
});
