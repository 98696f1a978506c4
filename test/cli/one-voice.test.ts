// Issue 16 end to end, through the built CLI: every option honoured or refused, nothing from input reaches the
// terminal raw (audit M3) or breaks out of Markdown (M4), help and completion from the one option table,
// -q, colour and the ASCII fallback, the config file, procs filters, explain's inputs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ACCEPTS, OPTIONS } from '../../src/cli/options.js';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';

const SNAPS = path.join(FIXTURES, 'snapshots');
const HELD = path.join(SNAPS, 'h200-memory-held.json');
const IDLE = path.join(SNAPS, 'h200-idle.json');
const dir = tempDir('ged-voice-');

/** OSC 52 (clipboard write), OSC 8 (a link), clear screen, a fake green line: what a hostile value carries. */
const EVIL =
  '\u001b]52;c;ZWNobyBwd25lZAo=\u0007\u001b]8;;https://evil.example/\u001b\\CLICK\u001b]8;;\u001b\\\u001b[2J\u001b[H\u001b[32mALL GOOD\u001b[0m';

function planted(name: string, edit: (s: Record<string, any>) => void, base = HELD): string {
  const s = JSON.parse(fs.readFileSync(base, 'utf8'));
  edit(s);
  const f = path.join(dir, name);
  fs.writeFileSync(f, JSON.stringify(s));
  return f;
}

const evilSnap = planted(
  'evil.json',
  (s) => {
    s.host.name = `node7${EVIL}`;
    s.env.CUDA_VISIBLE_DEVICES = `0${EVIL}`;
    const p = s.processes.list[0];
    p.name = `py${EVIL}`;
    p.cmdline = ['python3', `--tag=${EVIL}`];
    for (const e of s.python?.environments ?? []) e.prefix = `${e.prefix}${EVIL}`;
  },
  path.resolve(__dirname, '../../examples/snapshots/h200-memory-held.json'),
); // the full example: it has the library facts

describe('nothing from input reaches the terminal raw (audit M3)', () => {
  it.each([
    [['check', '--from', evilSnap]],
    [['check', '--from', evilSnap, '-v']],
    [['procs', '--from', evilSnap, '-v']],
    [['fix', '--from', evilSnap, '--dry-run']],
    [['diff', evilSnap, IDLE, '-v']],
    [['fleet', evilSnap, IDLE]],
    [['libs', '--from', evilSnap]],
  ])('%j: escape sequences shown as text, never sent', (args) => {
    const r = runCli(args as string[]);
    expect([0, 1]).toContain(r.code);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toMatch(/\\x1b\]52;c;ZWNobyBwd25lZAo=\\x07/);
  });

  it('explain FILE: a file name with an escape sequence is shown as text', () => {
    const f = path.join(dir, `log\u001b[2J.txt`);
    fs.writeFileSync(f, 'RuntimeError: CUDA error: out of memory\n');
    const r = runCli(['explain', f, '--no-machine']);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('log\\x1b[2J.txt');
  });
});

describe('no Markdown or HTML injection from a snapshot (audit M4)', () => {
  it('diff --markdown: host names and values cannot open tags, links or images, nor break out of code spans', () => {
    const f = planted('md.json', (s) => {
      s.host.name = 'node1 ![track](https://evil.example/host.png) <img src=https://evil.example/i.png>';
      s.env.CUDA_VISIBLE_DEVICES =
        'x`` <img src=https://evil.example/env.png> [fix here](https://evil.example/fix) ``y';
    });
    const md = runCli(['diff', f, IDLE, '--markdown']).stdout;
    // outside code spans: no tag, no link, no image
    const outside = md.replace(/(`+)[\s\S]*?\1/g, '');
    expect(outside).not.toMatch(/<img/);
    expect(outside).not.toMatch(/!\[/);
    expect(outside).not.toMatch(/(?<!\\)\]\(/);
    // the value is inside one code span delimited by more backticks than it holds
    expect(md).toContain('```x`` <img src=https://evil.example/env.png> [fix here](https://evil.example/fix) ``y```');
  });
});

describe('every option honoured or refused, from one table (issue 16.2)', () => {
  it.each([
    ['snapshot', '--markdown'],
    ['snapshot', '--html'],
    ['diff', '--html'],
    ['libs', '--markdown'],
    ['libs', '--html'],
    ['procs', '--markdown'],
    ['procs', '--html'],
    ['fix', '--markdown'],
    ['fix', '--html'],
    ['compat', '--markdown'],
    ['compat', '--html'],
    ['fleet', '--markdown'],
    ['preamble', '--json'],
  ])('%s %s: refused with one line, exit 2', (cmd, opt) => {
    const args = [cmd, opt, ...(OPTIONS[opt.slice(2) as keyof typeof OPTIONS].type === 'string' ? ['x.html'] : [])];
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^gpu-env-doctor: ${opt} is not an option of ${cmd}`));
  });

  it.each(Object.keys(ACCEPTS))('help %s lists exactly the options it takes, with examples', (cmd) => {
    const r = runCli(['help', cmd]);
    expect(r.code).toBe(0);
    const listed = [
      ...r.stdout
        .split('Options:')[1]!
        .split('Examples:')[0]!
        .matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+)/gm),
    ].map((m) => m[1]);
    expect(listed).toEqual([...ACCEPTS[cmd]!]);
    expect(r.stdout).toContain('Examples:');
  });
});

describe('help and completion (issue 16.12, 16.13)', () => {
  it('help COMMAND and COMMAND --help print the command help, wrapped to the terminal', () => {
    const a = runCli(['help', 'check'], { env: { COLUMNS: '80' } });
    const b = runCli(['check', '--help'], { env: { COLUMNS: '80' } });
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^Usage: gpu-env-doctor check \[OPTIONS\]/);
    expect(a.stdout).toContain('-q, --quiet');
    for (const l of a.stdout.split('\n'))
      if (!l.trimStart().startsWith('$ ')) expect(l.length, l).toBeLessThanOrEqual(80);
  });

  it.each(['bash', 'zsh', 'fish'])('completion %s names every command and the options of check', (shell) => {
    const r = runCli(['completion', shell]);
    expect(r.code).toBe(0);
    for (const c of ['check', 'explain', 'run', 'procs', 'completion']) expect(r.stdout).toContain(c);
    expect(r.stdout).toMatch(/fail-on/);
    expect(r.stdout).toMatch(/error warn/);
  });

  it('completion bash is valid bash', () => {
    const f = path.join(dir, 'c.bash');
    fs.writeFileSync(f, runCli(['completion', 'bash']).stdout);
    const r = require('node:child_process').spawnSync('bash', ['-n', f], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('-V prints the version', () => {
    expect(runCli(['-V']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('quiet, colour and the ASCII fallback (issue 16.13)', () => {
  it('-q: only the problems; nothing at all when there is none', () => {
    const held = runCli(['check', '-q', '--from', HELD]);
    expect(held.code).toBe(0); // 1.2 GiB free is a warning: small jobs still start there
    expect(held.stdout).toMatch(/^! GPU 0/m);
    expect(held.stdout).not.toMatch(/^\[/m); // no area lines
    expect(held.stdout).toMatch(/GPU 0 has 1\.2 GiB free/);
    const idle = runCli(['check', '-q', '--from', IDLE]);
    expect(idle.code).toBe(0);
    expect(idle.stdout).toBe('');
  });

  it('--color=always and FORCE_COLOR colour a pipe; --color=never and NO_COLOR do not', () => {
    expect(runCli(['check', '--from', HELD, '--color=always']).stdout).toContain('\u001b[');
    expect(runCli(['check', '--from', HELD], { env: { NO_COLOR: '', FORCE_COLOR: '1' } }).stdout).toContain('\u001b[');
    expect(
      runCli(['check', '--from', HELD, '--color=never'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } }).stdout,
    ).not.toContain('\u001b[');
    expect(runCli(['check', '--from', HELD]).stdout).not.toContain('\u001b[');
    expect(runCli(['check', '--from', HELD, '--color=sometimes']).stderr).toMatch(/--color/);
  }, 60000);

  it('a locale that is not UTF-8 gets ASCII symbols; JSON keeps its characters', () => {
    const r = runCli(['check', '--from', HELD], { env: { LANG: 'C' } });
    expect(r.stdout).not.toMatch(/[✓✗│≤·×]/);
    expect(r.stdout).toMatch(/^\[\+\] GPU & driver/m);
    expect(r.stdout).toMatch(/^! GPU 0 has/m);
    expect(r.stdout).toMatch(/^\s+\| PID 589/m);
    expect(runCli(['check', '--from', HELD, '--json'], { env: { LC_ALL: 'zh_CN.GBK' } }).stdout).toContain('≤');
    expect(runCli(['check', '--from', HELD], { env: { LANG: 'en_US.UTF-8' } }).stdout).toContain('✓');
  }, 60000);

  it('at 80 columns every line of check fits, with hanging indents (issue 16.6)', () => {
    const r = runCli(['check', '--from', HELD], { env: { COLUMNS: '80' } });
    const long = r.stdout.split('\n').filter((l) => l.length > 80 && !l.trimStart().startsWith('$ '));
    expect(long).toEqual([]);
    expect(r.stdout).toMatch(/\n {4}│ {3}\S/); // evidence continues under its gutter
  });
});

describe('--ignore and the config file (issue 16.13)', () => {
  it('--ignore CHECK accepts a finding: exit 0, and the summary says how many were accepted', () => {
    const r = runCli(['check', '--from', HELD, '--ignore', 'memory.headroom']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 accepted \(ignored by --ignore or the config file\)/);
  });
  it('a config file in the working directory does the same; a bad one is one line, exit 2', () => {
    const cwd = tempDir('ged-config-');
    fs.writeFileSync(path.join(cwd, '.gpu-env-doctor.json'), JSON.stringify({ ignore: ['memory.headroom'] }));
    expect(runCli(['check', '--from', HELD], { cwd }).code).toBe(0);
    fs.writeFileSync(path.join(cwd, '.gpu-env-doctor.json'), JSON.stringify({ ignore: ['memory.hedroom'] }));
    const bad = runCli(['check', '--from', HELD], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown check "memory\.hedroom" \(did you mean memory\.headroom\?\)/);
  });
});

describe('procs --gpu / --user (issue 16.13)', () => {
  it('filters the rows; a bad list is a usage error', () => {
    expect(runCli(['procs', '--from', HELD, '--gpu', '0']).stdout).toMatch(/ 589 /);
    expect(runCli(['procs', '--from', HELD, '--gpu', '1']).stdout).toContain(
      'No process of those GPUs or that user holds GPU memory.',
    );
    expect(runCli(['procs', '--from', HELD, '--user', 'root']).stdout).toMatch(/ 589 /);
    expect(runCli(['procs', '--from', HELD, '--user', 'alice']).stdout).not.toMatch(/ 589 /);
    expect(runCli(['procs', '--from', HELD, '--gpu', 'zero']).code).toBe(2);
  });
  it('procs --from says which snapshot it shows', () => {
    expect(runCli(['procs', '--from', HELD]).stdout).toMatch(
      /^gpu-env-doctor procs of the snapshot .*h200-memory-held\.json\n {2}host vm, taken/,
    );
  });
});

describe("explain's inputs (issue 16.12)", () => {
  const log = path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt');
  it('a piped standard input is read without "-"', () => {
    const r = runCli(['explain', '--no-machine'], { input: fs.readFileSync(log, 'utf8') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Another process holds the GPU memory/);
  });
  it('a gzip-compressed log is read', () => {
    const gz = path.join(dir, 'train.log.gz');
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(log)));
    const r = runCli(['explain', gz, '--no-machine']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Another process holds the GPU memory/);
  });
  it('a snapshot or an ELF file is recognised, and the message says what to use', () => {
    const snap = runCli(['explain', HELD, '--no-machine']);
    expect(snap.code).toBe(2);
    expect(snap.stderr).toMatch(/is a gpu-env-doctor snapshot, not a log: judge it with gpu-env-doctor check --from/);
    const elf = runCli(['explain', process.execPath, '--no-machine']);
    expect(elf.code).toBe(2);
    expect(elf.stderr).toMatch(/is a program or library \(ELF\), not a log: .*libs --elf/);
  });
  it('the idle GPU placeholder is filled from the machine the log is judged with (issue 16.9)', () => {
    const two = planted('two.json', (s) => {
      const g = structuredClone(s.nvidia.gpus[0]);
      Object.assign(g, {
        index: 1,
        uuid: 'GPU-11111111-2222-3333-4444-555555555555',
        processes: [],
        memory: { ...g.memory, usedMiB: 0, freeMiB: 143156 },
      });
      s.nvidia.gpus.push(g);
    });
    const r = runCli(['explain', log, '--from', two]);
    expect(r.stdout).not.toContain('<index of an idle GPU>');
    expect(r.stdout).toContain('CUDA_VISIBLE_DEVICES=GPU-11111111-2222-3333-4444-555555555555');
  });
});

describe('two hops to a fix become one (issue 16.9)', () => {
  it('check leads with gpu-env-doctor fix; fix --from does not tell you to run fix', () => {
    // the hog as an orphan with the evidence of it: its session is not its parent's, the parent started after it
    const orphan = planted(
      'orphan.json',
      (x) => void Object.assign(x.processes.list[0], { sid: 417, parentSid: 0, startTicks: 7986, parentStartTicks: 3 }),
    );
    const check = runCli(['check', '--from', orphan]).stdout;
    expect(check).toMatch(
      /Fix: .*\n\s+\$ gpu-env-doctor fix {3}# shows the plan and asks first\n\s+By hand, after checking: kill 589/,
    );
    expect(check).not.toMatch(/gpu-env-doctor procs/);
    const fix = runCli(['fix', '--from', orphan, '--dry-run']).stdout;
    expect(fix).toMatch(/skip PID 589 .*orphaned/); // planned, not done: from a snapshot
    expect(fix).not.toMatch(/\$ gpu-env-doctor fix|fix does this safely/);
    // an unknown holder: the by-hand step only, never the command that would not end it
    const unknown = runCli(['check', '--from', HELD]).stdout;
    expect(unknown).not.toMatch(/\$ gpu-env-doctor fix/);
    expect(unknown).toMatch(/By hand, after checking: kill 589/);
    expect(fix).toMatch(/^gpu-env-doctor fix of the snapshot .*: the plan \(nothing is done from a snapshot\)/);
  });
});

describe('docs/findings (issue 16.10)', () => {
  it('every check id has its page', async () => {
    const { ALL_CHECKS } = await import('../../src/judge/checks/index.js');
    const docs = path.resolve(__dirname, '../../docs/findings');
    for (const c of ALL_CHECKS) {
      const page = path.join(docs, `${c.id}.md`);
      expect(fs.existsSync(page), c.id).toBe(true);
      const text = fs.readFileSync(page, 'utf8');
      for (const part of ['**What it checks.**', '**Why it matters.**', '**How to fix.**'])
        expect(text, c.id).toContain(part);
    }
  });
});
