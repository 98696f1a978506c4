// Fix actions in each shell's syntax, and the bash forms the tool writes read back. The Windows lines are the
// ones cmd and PowerShell accept as written: no trailing comments in cmd, where.exe (not PowerShell's `where`),
// taskkill with /F for console programs, PATH instead of LD_LIBRARY_PATH.
import { describe, expect, test } from 'vitest';
import {
  parseBashAction,
  render,
  renderFor,
  shellsFor,
  type FixAction,
} from '../../src/judge/platform/shell-syntax.js';

const ROWS: Array<[FixAction, string, string, string]> = [
  [
    { kind: 'set-env', name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true' },
    'export TF_FORCE_GPU_ALLOW_GROWTH=true',
    'set TF_FORCE_GPU_ALLOW_GROWTH=true',
    '$env:TF_FORCE_GPU_ALLOW_GROWTH="true"',
  ],
  [
    { kind: 'set-env', name: 'XLA_PYTHON_CLIENT_MEM_FRACTION', value: '.50' },
    'export XLA_PYTHON_CLIENT_MEM_FRACTION=.50',
    'set XLA_PYTHON_CLIENT_MEM_FRACTION=.50',
    '$env:XLA_PYTHON_CLIENT_MEM_FRACTION=".50"',
  ],
  [
    { kind: 'set-env', name: 'CUDA_VISIBLE_DEVICES', value: '<index of an idle GPU>' },
    "export CUDA_VISIBLE_DEVICES='<index of an idle GPU>'",
    'set "CUDA_VISIBLE_DEVICES=<index of an idle GPU>"',
    '$env:CUDA_VISIBLE_DEVICES="<index of an idle GPU>"',
  ],
  [{ kind: 'set-env', name: 'X', value: 'a$b`c"d' }, "export X='a$b`c\"d'", 'set "X=a$b`cd"', '$env:X="a`$b``c`"d"'],
  [
    { kind: 'unset-env', name: 'TF_GPU_ALLOCATOR' },
    'unset TF_GPU_ALLOCATOR',
    'set TF_GPU_ALLOCATOR=',
    'Remove-Item Env:TF_GPU_ALLOCATOR',
  ],
  [{ kind: 'show-env', name: 'PATH' }, 'echo "PATH=$PATH"', 'echo PATH=%PATH%', 'echo "PATH=$env:PATH"'],
  [{ kind: 'end-process', pid: 637 }, 'kill 637', 'taskkill /PID 637 /F', 'taskkill /PID 637 /F'],
  [
    { kind: 'show-process', pid: 637 },
    'ps -o pid,user,etime,cmd -p 637',
    'tasklist /V /FI "PID eq 637"',
    'tasklist /V /FI "PID eq 637"',
  ],
  [
    { kind: 'prepend-library-path', dir: 'C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin' },
    "export LD_LIBRARY_PATH='C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",
    'set "PATH=C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin;%PATH%"',
    '$env:PATH="C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin;$env:PATH"',
  ],
  [
    { kind: 'install', tool: 'pip', args: ['install', 'tensorflow<2.11'] },
    "pip install 'tensorflow<2.11'",
    'pip install "tensorflow<2.11"',
    'pip install "tensorflow<2.11"',
  ],
  [
    { kind: 'install', tool: 'conda', args: ['install', '-c', 'conda-forge', 'cudnn=8.1.0'] },
    'conda install -c conda-forge cudnn=8.1.0',
    'conda install -c conda-forge cudnn=8.1.0',
    'conda install -c conda-forge cudnn=8.1.0',
  ],
  [
    { kind: 'find-library', name: 'cudnn64_8.dll' },
    'ldconfig -p | grep -F cudnn64_8.dll',
    'where.exe cudnn64_8.dll',
    'where.exe cudnn64_8.dll',
  ],
];

describe('render', () => {
  test.each(ROWS)('%o', (a, bash, cmd, ps) => {
    expect(render(a, 'bash')).toBe(bash);
    expect(render(a, 'cmd')).toBe(cmd);
    expect(render(a, 'powershell')).toBe(ps);
  });
  test('a cmd line never carries a value with a trailing comment or an unbalanced quote', () => {
    for (const [a] of ROWS) {
      const line = render(a, 'cmd');
      expect(line).not.toMatch(/\s#\s/);
      expect((line.match(/"/g) ?? []).length % 2).toBe(0);
    }
  });
  test('a variable name that is not one is refused, not rendered', () => {
    expect(() => render({ kind: 'set-env', name: 'A B', value: '1' }, 'cmd')).toThrow();
    expect(() => render({ kind: 'unset-env', name: '$(x)' }, 'bash')).toThrow();
  });
  test('Windows shows cmd and PowerShell; Linux and WSL bash', () => {
    expect(shellsFor('windows')).toEqual(['cmd', 'powershell']);
    expect(shellsFor('wsl')).toEqual(['bash']);
    expect(renderFor({ kind: 'end-process', pid: 1 }, 'windows')).toEqual(['taskkill /PID 1 /F']);
  });
});

describe('parseBashAction reads back what the tool writes, and nothing else', () => {
  test.each([
    ['export TF_FORCE_GPU_ALLOW_GROWTH=true', { kind: 'set-env', name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true' }],
    [
      "export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'",
      { kind: 'set-env', name: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True' },
    ],
    ['unset LD_PRELOAD', { kind: 'unset-env', name: 'LD_PRELOAD' }],
    ['kill 666', { kind: 'end-process', pid: 666 }],
    ['ps -o pid,ppid,user,etime,stat,cmd -p 666', { kind: 'show-process', pid: 666 }],
    ['echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"', { kind: 'show-env', name: 'CUDA_VISIBLE_DEVICES' }],
    [
      'export LD_LIBRARY_PATH=/opt/cudnn/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}',
      { kind: 'prepend-library-path', dir: '/opt/cudnn/lib' },
    ],
    [
      'pip install "tensorflow[and-cuda]"    # TF 2.14+: brings matching CUDA and cuDNN wheels',
      { kind: 'install', tool: 'pip', args: ['install', 'tensorflow[and-cuda]'] },
    ],
    [
      "pip install -U 'jax[cuda12]==0.4.30'",
      { kind: 'install', tool: 'pip', args: ['install', '-U', 'jax[cuda12]==0.4.30'] },
    ],
  ])('%s', (cmd, want) => {
    expect(parseBashAction(cmd)).toEqual(want);
  });
  test.each([
    'export A=$(id)',
    'kill -9 1',
    'pip install x; rm -rf /',
    'echo "$LD_LIBRARY_PATH"',
    'export A=`id`',
    'ldconfig -p | grep cudnn',
    '# PyTorch < 2.1: export X=1',
    'pip install x | tee log',
  ])('not an action: %s', (cmd) => {
    expect(parseBashAction(cmd)).toBeNull();
  });
  test('every bash line it renders reads back to the same action', () => {
    for (const [a] of ROWS) {
      if (a.kind === 'find-library' || (a.kind === 'set-env' && /[$`"]/.test(a.value))) continue;
      expect(parseBashAction(render(a, 'bash'))).toEqual(a);
    }
  });
});
