import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEnvFile } from '../../src/fix/apply.js';
import { mergeEnvFile } from '../../src/fix/env-file.js';
import { isAllowedSetting, parseSettingCommand, type EnvSetting } from '../../src/fix/env-settings.js';
import type { Plan } from '../../src/fix/plan.js';
import { createUserFiles } from '../../src/ports/user-files.js';
import { tempDir } from '../helpers/fake-bin.js';
import { execFileSync } from 'node:child_process';

const growth: EnvSetting = { name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true', check: 'env.allocators', why: 'TF takes all memory' };
const prealloc: EnvSetting = { name: 'XLA_PYTHON_CLIENT_PREALLOCATE', value: 'false', check: 'x.jax', why: 'JAX reserves 75%' };

describe('settings from fix commands', () => {
  it('reads export and unset lines, and nothing that a shell would expand', () => {
    expect(parseSettingCommand('export TF_FORCE_GPU_ALLOW_GROWTH=true')).toEqual({ name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true' });
    expect(parseSettingCommand("export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'")).toEqual({ name: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True' });
    expect(parseSettingCommand('unset TF_GPU_ALLOCATOR')).toEqual({ name: 'TF_GPU_ALLOCATOR', value: null });
    expect(parseSettingCommand('export A=$(id)')).toBeNull();
    expect(parseSettingCommand('export A=1; rm -rf /')).toBeNull();
    expect(parseSettingCommand('pip install torch')).toBeNull();
  });

  it('allows only the allocation-policy variables, with values they accept', () => {
    expect(isAllowedSetting('XLA_PYTHON_CLIENT_MEM_FRACTION', '.50')).toBe(true);
    expect(isAllowedSetting('XLA_PYTHON_CLIENT_MEM_FRACTION', '1.5')).toBe(false);
    expect(isAllowedSetting('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments:True,max_split_size_mb:128')).toBe(true);
    expect(isAllowedSetting('LD_LIBRARY_PATH', '/usr/lib')).toBe(false);
    expect(isAllowedSetting('CUDA_VISIBLE_DEVICES', '0')).toBe(false);
  });
});

describe('the env file', () => {
  it('a new file: a header saying how to load it, then one line per setting', () => {
    const out = mergeEnvFile('', [growth], 'gpu-env-doctor.env');
    expect(out).toContain('source ./gpu-env-doctor.env');
    expect(out.trimEnd().split('\n').at(-1)).toBe('export TF_FORCE_GPU_ALLOW_GROWTH=true  # env.allocators: TF takes all memory');
  });

  it('is idempotent, replaces its own lines in place, and keeps the lines the user added', () => {
    const first = mergeEnvFile('', [growth, prealloc], 'gpu-env-doctor.env');
    expect(mergeEnvFile(first, [growth, prealloc], 'gpu-env-doctor.env')).toBe(first);
    const edited = `${first}export MY_OWN=1\nexport TF_FORCE_GPU_ALLOW_GROWTH=false\n`;
    const again = mergeEnvFile(edited, [growth], 'gpu-env-doctor.env');
    expect(again.match(/TF_FORCE_GPU_ALLOW_GROWTH/g)).toHaveLength(1);
    expect(again).toContain('export MY_OWN=1');
    expect(again.indexOf('TF_FORCE_GPU_ALLOW_GROWTH')).toBe(first.indexOf('TF_FORCE_GPU_ALLOW_GROWTH'));
  });

  it('sourced by a real shell, it sets exactly the values', () => {
    const dir = tempDir();
    const file = path.join(dir, 'gpu.env');
    const settings: EnvSetting[] = [growth, { name: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True', check: 'c', why: "it's 'quoted'" }, { name: 'TF_GPU_ALLOCATOR', value: null, check: 'c', why: 'w' }];
    fs.writeFileSync(file, mergeEnvFile('', settings, file));
    const out = execFileSync('/bin/sh', ['-c', `. '${file}'; echo "$TF_FORCE_GPU_ALLOW_GROWTH|$PYTORCH_CUDA_ALLOC_CONF|\${TF_GPU_ALLOCATOR-unset}"`], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', TF_GPU_ALLOCATOR: 'bfc' } });
    expect(out.trim()).toBe('true|expandable_segments:True|unset');
  });

  it('fix writes it once; a second run with the same settings leaves the bytes as they are', () => {
    const dir = tempDir();
    const files = createUserFiles(dir);
    const plan = { env: [growth], envFile: 'gpu-env-doctor.env' } as unknown as Plan;
    const r1 = writeEnvFile(plan, files);
    expect(r1.kind).toBe('written');
    const bytes = fs.readFileSync(path.join(dir, 'gpu-env-doctor.env'), 'utf8');
    const r2 = writeEnvFile(plan, files);
    expect(r2.kind).toBe('unchanged');
    expect(fs.readFileSync(path.join(dir, 'gpu-env-doctor.env'), 'utf8')).toBe(bytes);
  });

  it('does not overwrite something it cannot read (a directory of that name)', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'gpu-env-doctor.env'));
    const plan = { env: [growth], envFile: 'gpu-env-doctor.env' } as unknown as Plan;
    expect(() => writeEnvFile(plan, createUserFiles(dir))).toThrow(/is a directory/);
  });
});
