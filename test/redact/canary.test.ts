// The redaction canary test (issue 14, H2/M5/L1): every command of the registry, with every output format the
// CLI knows, run with --redact over a world seeded with canaries (test/redact/canary-world.ts): none may appear
// in stdout, stderr or any file the command writes. The commands come from the registry and the formats from
// the one option table (src/cli/options.ts: every output option, every --format value), so a command or format
// added later is run too; a command missing from the table below fails the test. An output option that a command
// takes (ACCEPTS) must be accepted together with --redact, and --redact is never the option refused. Each command also runs once without --redact, to prove the canaries reach its
// output (otherwise this test could not fail).
//
// Commands run in-process through main() with a real context (the same wiring as src/cli.ts; hundreds of
// runs in seconds); `run` is spawned (its job's output goes to the real stdout/stderr).
import { spawn as spawnChild } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createRedactor, redactDeep } from '../../src/report/redact.js';
import { ACCEPTS, OPTIONS, type OptionName } from '../../src/cli/options.js';
import { createContext } from '../../src/cli/real-context.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { createUserFiles } from '../../src/ports/user-files.js';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildCanaryWorld, CANARIES, LOG_LINES, type CanaryWorld } from './canary-world.js';

interface Entry {
  /** does it show machine facts at all? (preamble prints a fixed script) */
  facts: boolean;
  /** the invocations, without the output flags; `root` marks those that read /etc/passwd under --root */
  runs: ((w: CanaryWorld) => string[])[];
  spawn?: boolean;
  /** a server that does not end by itself: its --redact is proven by the test named here instead */
  testedIn?: string;
}

const fromSnap = (w: CanaryWorld) => ['--from', w.snap, '--root', w.root];
const live = (w: CanaryWorld) => ['--root', w.root];

/** Every command of the registry must be here: a new command is added with the invocations that exercise it. */
const TABLE: Record<string, Entry> = {
  check: { facts: true, runs: [fromSnap, live] },
  snapshot: { facts: true, runs: [fromSnap, live] },
  explain: {
    facts: true,
    runs: [(w) => [w.log, ...fromSnap(w)], (w) => [w.log, ...live(w)], (w) => [w.log, '--no-machine']],
  },
  diff: { facts: true, runs: [(w) => [w.snap, w.snapB, '--root', w.root], (w) => [w.snapB, ...live(w)]] },
  fleet: { facts: true, runs: [(w) => [w.fleet]] },
  libs: { facts: true, runs: [fromSnap, live] },
  procs: { facts: true, runs: [fromSnap, live, (w) => ['--watch', '0.1', '--count', '2', ...live(w)]] },
  fix: { facts: true, runs: [fromSnap, (w) => ['--dry-run', ...live(w)]] },
  compat: {
    facts: true,
    runs: [(w) => ['torch==2.1.0+cu121', ...fromSnap(w)], (w) => ['torch==2.1.0+cu121', ...live(w)]],
  },
  run: {
    facts: true,
    spawn: true,
    // the job prints the canary log lines to stderr and fails; its argv carries the canary secrets and hosts
    runs: [
      (w) => [
        ...live(w),
        '--interval',
        '100',
        '--',
        'sh',
        '-c',
        'for l in "$@"; do echo "$l" >&2; done; exit 1',
        'job',
        ...LOG_LINES,
      ],
    ],
  },
  preamble: { facts: false, runs: [() => ['--framework', 'torch']] },
  completion: { facts: false, runs: [() => ['bash']] },
  // the page and /state.json of a running server, with a real orphan holder: user names, command lines, UUIDs
  serve: { facts: true, runs: [], testedIn: "test/serve/cli.test.ts: '--redact hides user names and command lines'" },
  // each tool runs one of the commands above with the server's --redact; the server adds no fact of its own
  mcp: { facts: true, runs: [], testedIn: "test/mcp/server.test.ts: 'nothing it returns bypasses --redact'" },
};

/** The output selectors the CLI knows: the output options of the option table, and every --format value. */
function outputVariants(): string[][] {
  const formats = new Set<string>(['text', 'json', 'markdown', 'prometheus', 'html', ...OPTIONS.format.choices]);
  return [
    [],
    ['--json'],
    ['--markdown'],
    ['--html', 'report.html'],
    ['-v'],
    ['-q'],
    ...[...formats].map((f) => ['--format', f]),
    ...['json', 'md', 'html'].map((x) => ['--report', `report.${x}`]),
  ];
}

/** The option of the table a variant uses (-v is verbose, -q quiet), or null for the plain run. */
function optionOf(v: string[]): OptionName | null {
  if (v.length === 0) return null;
  const flag = v[0]!;
  const byShort = Object.entries(OPTIONS).find(([, d]) => 'short' in d && `-${d.short}` === flag);
  return (byShort ? byShort[0] : flag.replace(/^--/, '')) as OptionName;
}

/** does the command take the variant's option (per the option table)? --format's values are the command's own. */
const takes = (command: string, v: string[]) => {
  const o = optionOf(v);
  return o === null || (ACCEPTS[command] ?? []).includes(o);
};

/** runs `work` over `items`, at most `n` at a time (in-process runs mostly wait for probes' child processes) */
async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  files: Record<string, string>;
}

let world: CanaryWorld;
let variants: string[][];
const dirs: string[] = [];
beforeAll(async () => {
  world = buildCanaryWorld();
  dirs.push(world.dir, world.root);
  // in-process runs find the fake nvidia-smi through the runner's environment (this test file's own process)
  process.env.PATH = world.env.PATH;
  variants = outputVariants();
}, 60_000);
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function invoke(argv: string[], spawn: boolean): Promise<Outcome> {
  const cwd = tempDir('ged-canary-cwd-');
  dirs.push(cwd);
  let stdout = '';
  let stderr = '';
  let code: number | null;
  if (spawn) {
    const r = await spawnAsync(argv, cwd);
    ({ stdout, stderr, code } = r);
  } else {
    const ctx = {
      ...createContext(argv),
      stdout: { write: (s: string) => void (stdout += s), isTTY: false },
      stderr: { write: (s: string) => void (stderr += s), isTTY: false },
      env: { ...world.env },
      cwd,
      files: createUserFiles(cwd),
      color: false,
      stdin: Readable.from([]),
    };
    code = await main(argv, ctx);
  }
  const files: Record<string, string> = {};
  for (const f of fs.readdirSync(cwd, { recursive: true }) as string[]) {
    const p = path.join(cwd, f);
    if (fs.statSync(p).isFile()) files[f] = fs.readFileSync(p, 'utf8');
  }
  return { code, stdout, stderr, files };
}

function spawnAsync(argv: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(process.execPath, [CLI, ...argv], {
      env: world.env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The canaries in an outcome (the job's own pass-through lines of `run` are the job's, not ours: left out). */
function leaks(o: Outcome, withPasswd: boolean): string[] {
  const stderr = o.stderr
    .split('\n')
    .filter((l) => !LOG_LINES.includes(l))
    .join('\n');
  const all = [o.stdout, stderr, ...Object.values(o.files)].join('\n').toLowerCase();
  return CANARIES.filter((c) => (withPasswd || !c.passwdOnly) && all.includes(c.value.toLowerCase())).map(
    (c) => `${c.value} (${c.what})`,
  );
}

/** exit 2 with one line naming the output option: the command does not take it (refused, never ignored). */
function refused(o: Outcome): boolean {
  return (
    o.code === 2 &&
    o.stderr.trim().split('\n').length === 1 &&
    /option|--format|--json|--markdown|--html|--report|cannot be combined|choose one/i.test(o.stderr)
  );
}

describe('--redact canary: every command × every output format', () => {
  it('has an entry for every command in the registry', () => {
    expect(Object.keys(COMMANDS).filter((c) => !(c in TABLE))).toEqual([]);
  });

  for (const name of Object.keys(TABLE).filter((n) => TABLE[n]!.testedIn === undefined)) {
    it(`${name}: no canary in any output, with every format it takes`, async () => {
      const entry = TABLE[name]!;
      if (!(name in COMMANDS)) return; // removed from the registry: nothing to run
      const failures: string[] = [];
      let accepted = 0;
      // Every output variant on the first invocation; the others (other sources of the same facts) plain and --json.
      // A spawned command (run: seconds each) gets the variants it takes; in-process ones get them all (the
      // others must be refused in one line).
      const mine = entry.spawn ? variants.filter((v) => takes(name, v)) : variants;
      const jobs = entry.runs.flatMap((run, i) =>
        (i === 0 ? mine : mine.slice(0, 2)).map((v) => ({ base: run(world), v })),
      );
      await pool(jobs, 4, async ({ base, v }) => {
        const withPasswd = base.includes('--root');
        // run's options go before its "--"
        const dd = base.indexOf('--');
        const argv =
          dd === -1
            ? [name, ...base, ...v, '--redact']
            : [name, ...base.slice(0, dd), ...v, '--redact', ...base.slice(dd)];
        const o = await invoke(argv, entry.spawn === true);
        const shown = `gpu-env-doctor ${argv.map((a) => (a.length > 40 ? `${a.slice(0, 37)}…` : a)).join(' ')}`;
        const found = leaks(o, withPasswd);
        if (found.length > 0) failures.push(`${shown}\n    leaks ${found.join(', ')}`);
        if (o.code === 2 && !refused(o)) failures.push(`${shown}\n    failed: ${o.stderr.trim().split('\n')[0]}`);
        // H2: --redact is never what a command that shows facts refuses; an output option the command takes is taken with --redact too
        // (--format: the table cannot say which values a command takes, so only the option itself counts)
        if (o.code === 2 && /--redact\b/.test(o.stderr)) {
          if (entry.facts) failures.push(`${shown}\n    refuses --redact: ${o.stderr.trim()}`);
        } else if (o.code === 2 && takes(name, v) && optionOf(v) !== 'format')
          failures.push(`${shown}\n    refused an option it takes: ${o.stderr.trim()}`);
        if (o.code !== 2) {
          accepted++;
          if (`${o.stdout}${o.stderr}${Object.values(o.files).join('')}`.trim() === '')
            failures.push(`${shown}\n    printed nothing`);
        }
      });
      expect(failures).toEqual([]);
      // a command that shows machine facts must honour --redact at least in its plain form (H2: never ignore it)
      if (entry.facts) expect(accepted).toBeGreaterThan(0);
    }, 120_000);

    if (TABLE[name]!.facts) {
      it(`${name}: without --redact the canaries do reach its output (so the test above can fail)`, async () => {
        const entry = TABLE[name]!;
        const base = entry.runs[0]!(world);
        const dd = base.indexOf('--');
        for (const v of [[], ['--json']]) {
          const argv = dd === -1 ? [name, ...base, ...v] : [name, ...base.slice(0, dd), ...v, ...base.slice(dd)];
          const o = await invoke(argv, entry.spawn === true);
          if (refused(o)) continue;
          expect(leaks({ ...o, stderr: o.stderr }, true).length, `${argv.join(' ')}`).toBeGreaterThan(0);
        }
      }, 60_000);
    }
  }
});

// The residue the 2026-12-03 audit found (L1), line by line as it wrote them: each value must be replaced, in
// text (logs, reports) and in an argument vector (a process's command line in a snapshot).
describe("--redact: the second audit's residue", () => {
  const lines: [string, string[]][] = [
    [
      'wget https://data.corp-internal.net/ds.tar?X-Amz-Signature=AMZSIG0123456789abcdef&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE',
      ['corp-internal', 'AMZSIG', 'AKIAIOSFODNN7EXAMPLE'],
    ],
    ['python train.py --wandb-key 0123456789abcdef0123456789abcdef01234567', ['0123456789abcdef']],
    ['mysql://dbuser:dbpassw0rd@db.corp-internal.net:3306/x', ['dbpassw0rd', 'corp-internal']],
    ['curl -u alice:s3cr3tpw https://api.corp-internal.net/', ['s3cr3tpw', 'alice', 'corp-internal']],
    [
      'python x.py --key=KEYVALUE123456789 --passwd hunter2hunter2 --pwd PWDVALUE99',
      ['KEYVALUE', 'hunter2', 'PWDVALUE'],
    ],
    ['url https://gitlab.corp-internal.net/alice/proj.git', ['corp-internal', 'alice']],
    ['https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=ZSIGabc%2Bdef0123&se=2026', ['ZSIGabc', 'acct.blob']],
  ];
  it('in text', () => {
    const r = createRedactor(undefined, [{ kind: 'user', value: 'alice' }]);
    for (const [line, gone] of lines) {
      const out = r.text(line);
      for (const g of gone) expect(out, `${line}\n→ ${out}`).not.toContain(g);
    }
  });
  it('in an argument vector', () => {
    const argv = [
      'curl',
      '-u',
      'alice:s3cr3tpw',
      '--wandb-key',
      'deadbeefdeadbeef',
      '--key',
      'KEYVALUE123',
      '--pwd',
      'PWDVALUE99',
      'https://db.corp-internal.net/x?token=TOKVALUE123',
    ];
    const out = JSON.stringify(
      redactDeep({ cmdline: argv }, createRedactor(undefined, [{ kind: 'user', value: 'alice' }])),
    );
    for (const g of ['s3cr3tpw', 'alice', 'deadbeef', 'KEYVALUE', 'PWDVALUE', 'corp-internal', 'TOKVALUE'])
      expect(out).not.toContain(g);
  });
  it("keeps what names nobody: public documentation and package hosts, $PWD, a record's key field", () => {
    const r = createRedactor();
    expect(
      r.text('pip install torch --index-url https://download.pytorch.org/whl/cu121 see https://docs.nvidia.com/cuda/'),
    ).toBe('pip install torch --index-url https://download.pytorch.org/whl/cu121 see https://docs.nvidia.com/cuda/');
    expect(JSON.stringify(redactDeep({ env: [{ key: 'LD_LIBRARY_PATH', value: '/usr/lib' }], PWD: '/tmp/x' }, r))).toBe(
      '{"env":[{"key":"LD_LIBRARY_PATH","value":"/usr/lib"}],"PWD":"/tmp/x"}',
    );
  });
});
