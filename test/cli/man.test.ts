import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { roffEscape } from '../../src/cli/man.js';
import { OPTIONS } from '../../src/cli/options.js';
import { COMMANDS } from '../../src/cli/registry.js';

const repo = path.resolve(__dirname, '../..');
// built by `npm run build` (scripts/build.mjs → scripts/man.mjs), as the CLI tests need dist/ anyway
const page = path.join(repo, 'dist/gpu-env-doctor.1');
const has = (prog: string) => spawnSync(prog, ['--version'], { encoding: 'utf8' }).status === 0;

describe('the manual page', () => {
  const text = fs.readFileSync(page, 'utf8');

  it('is what package.json installs as man page', () => {
    expect(JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).man).toBe('dist/gpu-env-doctor.1');
  });

  it('has every command and every option of the option table', () => {
    for (const name of Object.keys(COMMANDS)) expect(text).toMatch(new RegExp(`^\\.SS "${name}\\b`, 'm'));
    const options = text.slice(text.indexOf('\n.SH OPTIONS\n'));
    for (const name of Object.keys(OPTIONS)) expect(options).toContain(`\\fB\\-\\-${name.replace(/-/g, '\\-')}\\fR`);
    // each command lists the options it takes, with their help
    const procs = text.slice(text.indexOf('.SS "procs'), text.indexOf('.SS "', text.indexOf('.SS "procs') + 1));
    expect(procs).toContain('\\fB\\-\\-gpu\\fR');
    expect(procs).toContain('\\fBgpu\\-env\\-doctor procs');
  });

  it('renders without warnings', () => {
    if (has('groff')) {
      const r = spawnSync('groff', ['-man', '-ww', '-k', '-Tutf8', '-z', page], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
    if (has('man')) {
      const r = spawnSync('man', ['--warnings', '-l', page], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' },
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^NAME\n +gpu-env-doctor +- why your GPU/m);
      expect(r.stdout).toMatch(/^OPTIONS$/m);
    }
  });

  it('escapes text so that no line is read as a request', () => {
    expect(roffEscape(".venv and \\n\n'quoted' --json")).toBe("\\&.venv and \\en\n\\&'quoted' \\-\\-json");
  });
});
