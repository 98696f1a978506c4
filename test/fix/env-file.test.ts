import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEnvFile } from '../../src/act/fix/apply.js';
import { mergeEnvFile } from '../../src/judge/fix/env-file.js';
import { isAllowedSetting, parseSettingCommand, type EnvSetting } from '../../src/judge/fix/env-settings.js';
import type { Plan } from '../../src/judge/fix/plan.js';
import { createUserFiles } from '../../src/ports/user-files.js';
import { tempDir } from '../helpers/fake-bin.js';
import { execFileSync } from 'node:child_process';

const growth: EnvSetting = {
  name: 'TF_FORCE_GPU_ALLOW_GROWTH',
  value: 'true',
  check: 'env.allocators',
  why: 'TF takes all memory',
};
const prealloc: EnvSetting = {
  name: 'XLA_PYTHON_CLIENT_PREALLOCATE',
  value: 'false',
  check: 'x.jax',
  why: 'JAX reserves 75%',
};

describe('settings from fix commands', () => {
  it('reads export and unset lines, and nothing that a shell would expand', () => {
    expect(parseSettingCommand('export TF_FORCE_GPU_ALLOW_GROWTH=true')).toEqual({
      name: 'TF_FORCE_GPU_ALLOW_GROWTH',
      value: 'true',
    });
    expect(parseSettingCommand("export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'")).toEqual({
      name: 'PYTORCH_CUDA_ALLOC_CONF',
      value: 'expandable_segments:True',
    });
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
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'export TF_FORCE_GPU_ALLOW_GROWTH=true  # env.allocators: TF takes all memory',
    );
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
    const settings: EnvSetting[] = [
      growth,
      { name: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True', check: 'c', why: "it's 'quoted'" },
      { name: 'TF_GPU_ALLOCATOR', value: null, check: 'c', why: 'w' },
    ];
    fs.writeFileSync(file, mergeEnvFile('', settings, file));
    const out = execFileSync(
      '/bin/sh',
      ['-c', `. '${file}'; echo "$TF_FORCE_GPU_ALLOW_GROWTH|$PYTORCH_CUDA_ALLOC_CONF|\${TF_GPU_ALLOCATOR-unset}"`],
      { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', TF_GPU_ALLOCATOR: 'bfc' } },
    );
    expect(out.trim()).toBe('true|expandable_segments:True|unset');
  });

  it('fix writes it once; a second run with the same settings leaves the bytes as they are', () => {
    const dir = tempDir();
    const files = createUserFiles(dir);
    const plan = { env: [growth], envFile: 'gpu-env-doctor.env', envBlocked: null } as unknown as Plan;
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
    const plan = { env: [growth], envFile: 'gpu-env-doctor.env', envBlocked: null } as unknown as Plan;
    expect(writeEnvFile(plan, createUserFiles(dir))).toMatchObject({
      kind: 'not-written',
      why: expect.stringMatching(/not a regular file/),
    });
    expect(fs.statSync(path.join(dir, 'gpu-env-doctor.env')).isDirectory()).toBe(true);
  });
});

describe('the env file is the user’s to source: never written through a link or into another user’s file (audit M10)', () => {
  const plan = { env: [growth], envFile: 'gpu-env-doctor.env', envBlocked: null } as unknown as Plan;
  const privateDir = () => {
    const d = tempDir();
    fs.chmodSync(d, 0o700);
    return d;
  };

  it('a symbolic link in its place is refused; the file it points to is untouched', () => {
    const dir = privateDir();
    const target = path.join(tempDir(), 'target.txt');
    fs.writeFileSync(target, 'root-only line 1\nroot-only line 2\n', { mode: 0o600 });
    fs.symlinkSync(target, path.join(dir, 'gpu-env-doctor.env'));
    const files = createUserFiles(dir);
    expect(files.privateFileProblem('gpu-env-doctor.env')).toMatch(
      /it is a symbolic link .*fix never writes through a link/,
    );
    expect(writeEnvFile(plan, files)).toMatchObject({
      kind: 'not-written',
      why: expect.stringMatching(/symbolic link/),
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('root-only line 1\nroot-only line 2\n');
    expect(fs.lstatSync(path.join(dir, 'gpu-env-doctor.env')).isSymbolicLink()).toBe(true);
  });

  it('another user’s file is refused', () => {
    const dir = privateDir();
    const f = path.join(dir, 'gpu-env-doctor.env');
    fs.writeFileSync(f, 'export A=1\n');
    fs.chownSync(f, 65534, 65534);
    expect(writeEnvFile(plan, createUserFiles(dir))).toMatchObject({
      kind: 'not-written',
      why: expect.stringMatching(/belongs to another user \(uid 65534\)/),
    });
    expect(fs.readFileSync(f, 'utf8')).toBe('export A=1\n');
  });

  it('a folder other users may write (not sticky) is refused; a sticky one (like /tmp) is fine', () => {
    const open = tempDir();
    fs.chmodSync(open, 0o777);
    expect(createUserFiles(open).privateFileProblem('gpu-env-doctor.env')).toMatch(/can be written by other users/);
    expect(writeEnvFile(plan, createUserFiles(open)).kind).toBe('not-written');
    expect(fs.readdirSync(open)).toEqual([]);
    const sticky = tempDir();
    fs.chmodSync(sticky, 0o1777);
    expect(writeEnvFile(plan, createUserFiles(sticky)).kind).toBe('written');
  });

  it('a binary file is not rewritten (bytes that are not UTF-8 would be mangled)', () => {
    const dir = privateDir();
    const f = path.join(dir, 'gpu-env-doctor.env');
    const bin = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe, 0xfd, 0x0a]);
    fs.writeFileSync(f, bin);
    expect(writeEnvFile(plan, createUserFiles(dir))).toMatchObject({
      kind: 'not-written',
      why: expect.stringMatching(/not a text file/),
    });
    fs.writeFileSync(f, Buffer.from([0x41, 0xff, 0xfe, 0x0a]));
    expect(writeEnvFile(plan, createUserFiles(dir))).toMatchObject({
      kind: 'not-written',
      why: expect.stringMatching(/not UTF-8 text/),
    });
    expect(fs.readFileSync(f)).toEqual(Buffer.from([0x41, 0xff, 0xfe, 0x0a]));
  });

  it('writes a new file beside the old one and renames it over: the mode is kept, no temporary file is left', () => {
    const dir = privateDir();
    const f = path.join(dir, 'gpu-env-doctor.env');
    fs.writeFileSync(f, '# mine\nexport KEEP=1\n', { mode: 0o600 });
    const inode = fs.statSync(f).ino;
    expect(writeEnvFile(plan, createUserFiles(dir)).kind).toBe('written');
    expect(fs.readFileSync(f, 'utf8')).toMatch(/^# mine\nexport KEEP=1\nexport TF_FORCE_GPU_ALLOW_GROWTH=true/);
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(fs.statSync(f).ino).not.toBe(inode);
    expect(fs.readdirSync(dir)).toEqual(['gpu-env-doctor.env']);
  });
});
