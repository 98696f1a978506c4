// Which command lines make dist/cli.js start nvidia-smi before the program loads: only check's, with options that
// change neither the call nor whether check reaches it, each read as the parser reads it.
import { describe, expect, it } from 'vitest';
import { EARLY_DEFAULT_TIMEOUT_MS, earlyNvidia } from '../../src/cli/early-gate.js';
import { ACCEPTS, OPTIONS, type OptionDef } from '../../src/cli/options.js';
import { DEFAULT_PROBE_OPTIONS } from '../../src/gather/probe-env.js';
import { parseCommandArgs } from '../../src/cli/args.js';
import { optionSpec } from '../../src/cli/options.js';

const yes = (argv: string[]) => expect(earlyNvidia(argv), argv.join(' ')).toBeDefined();
const no = (argv: string[]) => expect(earlyNvidia(argv), argv.join(' ')).toBeUndefined();

describe('the early nvidia-smi: which command lines', () => {
  it('check, named or the default, with the options that leave nvidia-smi as it is', () => {
    yes([]);
    yes(['check']);
    yes(['--json']);
    yes(['check', '--json', '--root', '/tmp', '--python', '/opt/x/bin/python3', '--all-envs']);
    yes(['check', '-v', '--markdown', '--redact', '--html', 'r.html', '--ignore', 'memory.headroom', '--ignore=a.b']);
    yes(['check', '--deep']);
    yes(['check', '--deep=frameworks', '--format', 'prometheus', '--fail-on=warn', '--config', 'c.json']);
    yes(['--lang', 'zh', 'check', '-q']);
    yes(['--color', 'never', '--lang=en', 'check', '--no-color']);
    yes(['--lang', 'zh', '--json']);
    expect(earlyNvidia(['check', '--root', 'a', '--root=/b'])).toEqual({
      timeoutMs: EARLY_DEFAULT_TIMEOUT_MS,
      roots: ['a', '/b'],
    });
  });

  it('the time limit as check reads it: the last --timeout, in seconds; one check refuses starts nothing', () => {
    expect(EARLY_DEFAULT_TIMEOUT_MS).toBe(DEFAULT_PROBE_OPTIONS.timeoutMs);
    expect(earlyNvidia(['check'])?.timeoutMs).toBe(5000);
    expect(earlyNvidia(['check', '--timeout', '2.5'])?.timeoutMs).toBe(2500);
    expect(earlyNvidia(['check', '--timeout=30', '--timeout', '1'])?.timeoutMs).toBe(1000);
    for (const bad of ['0', 'abc', '', 'Infinity']) no(['check', `--timeout=${bad}`]);
    no(['check', '--timeout', '-1']);
  });

  it('nothing for another command, --from, help, --version, a positional, `--`', () => {
    for (const argv of [
      ['explain', 'log.txt', '--no-machine'],
      ['check', '--ignore', 'explain'],
      ['snapshot'],
      ['libs', '--json'],
      ['run', '--', 'python', 't.py'],
      ['check', '--from', 's.json'],
      ['check', '--from=s.json'],
      ['--version'],
      ['-V'],
      ['version'],
      ['help'],
      ['--help'],
      ['check', '--help'],
      ['check', '-h'],
      ['check', 'help'],
      ['check', 'extra'],
      ['--json', 'check'],
      ['check', '--', '--json'],
      ['--lang', 'zh', 'snapshot'],
    ])
      no(argv);
  });

  it('nothing for an option the parser refuses or might read otherwise', () => {
    for (const argv of [
      ['check', '--bogus'],
      ['check', '-x'],
      ['check', '-vq'],
      ['check', '--json=1'],
      ['check', '--pid', '1'],
      ['check', '--no-machine'],
      ['check', '--root'],
      ['check', '--root', '--json'],
      ['check', '--lang', 'fr'],
      ['check', '--format', 'html'],
      ['check', '--fail-on', 'info'],
      ['check', '--color', 'sometimes'],
      ['check', '--color'],
      ['check', '--deep', 'native'],
      ['check', '--deep=all'],
    ])
      no(argv);
  });

  it('every option it lets through is one check takes, with the parser type and the choices of the table', () => {
    const accepted = new Set(ACCEPTS.check!);
    const probes: [string, string[]][] = [
      ['json', []],
      ['markdown', []],
      ['redact', []],
      ['no-color', []],
      ['all-envs', []],
      ['verbose', []],
      ['quiet', []],
      ['color', ['always', 'never', 'auto']],
      ['lang', ['en', 'zh']],
      ['format', ['text', 'json', 'markdown', 'prometheus']],
      ['fail-on', ['error', 'warn']],
      ['ignore', ['x']],
      ['config', ['x']],
      ['html', ['x']],
      ['python', ['x']],
      ['timeout', ['3']],
      ['root', ['/']],
    ];
    for (const [name, values] of probes) {
      const def = (OPTIONS as Record<string, OptionDef>)[name]!;
      expect(accepted.has(name as never), name).toBe(true);
      expect(def.type, name).toBe(values.length === 0 ? 'boolean' : 'string');
      if (def.choices) expect([...def.choices].sort(), name).toEqual([...values].sort());
      for (const v of values.length === 0 ? [undefined] : values) {
        const argv = v === undefined ? ['check', `--${name}`] : ['check', `--${name}`, v];
        yes(argv);
        // and the parser takes it without a word
        expect(() => parseCommandArgs(argv.slice(1), optionSpec('check'), 'check')).not.toThrow();
      }
    }
    // the options of check it does not let through: each changes the run or ends check before it
    const through = new Set([...probes.map(([n]) => n), 'deep']);
    expect(ACCEPTS.check!.filter((n) => !through.has(n)).sort()).toEqual(['from', 'help']);
  });
});
