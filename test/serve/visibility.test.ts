// Which command lines the live page shows: secrets never; other users' only where /proc would show them to a
// user of the machine (not hidepid), or with --show-all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretRedactor } from '../../src/report/redact.js';
import { buildPageModel } from '../../src/report/serve/model.js';
import { applyCommandPolicy, procHidesOthers } from '../../src/act/serve/visibility.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';
import { get, startServe, until, type Serve } from './helpers.js';
import { sampleState } from './sample-state.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

// /proc/self/mountinfo lines as the kernel writes them (6.x): the proc mount's own options after " - proc proc "
const PROC_PLAIN = '22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw';
const PROC_HIDEPID2 = '22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw,hidepid=2';
const PROC_INVISIBLE = '640 22 0:61 / /proc rw,relatime - proc proc rw,hidepid=invisible';
const SYS = '23 1 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw';

describe("does /proc hide other users' processes?", () => {
  it('reads the proc mount at /proc, the last one mounted there', () => {
    expect(procHidesOthers([SYS, PROC_PLAIN].join('\n'))).toBe(false);
    expect(procHidesOthers([SYS, PROC_HIDEPID2].join('\n'))).toBe(true);
    expect(procHidesOthers([PROC_PLAIN, PROC_INVISIBLE].join('\n'))).toBe(true);
    expect(
      procHidesOthers([PROC_HIDEPID2, PROC_PLAIN.replace(' - proc proc rw', ' - proc proc rw,hidepid=0')].join('\n')),
    ).toBe(false);
    // a proc mounted elsewhere (a container's) does not count
    expect(procHidesOthers('700 1 0:70 / /srv/ctr/proc rw - proc proc rw,hidepid=2')).toBe(false);
    expect(procHidesOthers('')).toBe(false);
  });
});

describe('the command lines of the page model', () => {
  const st = sampleState();
  // alice (uid 1000) runs serve; her job's command line carries a token
  st.good!.snapshot.processes.list[0]!.cmdline = [
    'python3',
    'train_jax.py',
    '--hf-token',
    'hf_ALICESECRET0123456789',
    '--data',
    'https://x.blob.example.net/d?sig=SIGVALUE0123',
  ];
  const procs = (m: ReturnType<typeof buildPageModel>) =>
    m.gpus.flatMap((g) => g.procs).map((p) => [p.pid, p.command, p.commandFull] as const);

  it('secrets replaced, everything else as collected, when /proc shows every process', () => {
    const m = applyCommandPolicy(buildPageModel(wordsFor(getLang()), st), st, {
      secrets: createSecretRedactor(),
      hideOthers: false,
    });
    const text = JSON.stringify(m);
    expect(text).not.toContain('ALICESECRET');
    expect(text).not.toContain('SIGVALUE');
    expect(procs(m)).toContainEqual([5150, 'python train.py --batch-size 64', 'python train.py --batch-size 64']);
    expect(procs(m).find(([pid]) => pid === 4242)![1]).toBe(
      "python3 train_jax.py --hf-token secret-1 --data 'https://x.blob.example.net/d?sig=secret-2'",
    );
    expect(m.othersHidden).toBeUndefined();
  });

  it("under hidepid: other users' command lines as the process name only; the user running serve keeps hers", () => {
    const m = applyCommandPolicy(buildPageModel(wordsFor(getLang()), st), st, {
      secrets: createSecretRedactor(),
      hideOthers: true,
    });
    expect(procs(m)).toContainEqual([5150, 'python', 'python']);
    expect(procs(m)).toContainEqual([5161, 'pt_data_worker', 'pt_data_worker']);
    expect(procs(m).find(([pid]) => pid === 4242)![1]).toContain('train_jax.py --hf-token secret-1');
    expect(JSON.stringify(m)).not.toContain('--batch-size');
    expect(m.othersHidden).toBe(3);
  });
});

const servers: Serve[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** A machine under --root: bob's GPU job with a token on its command line; /proc hidepid or not. */
function machine(hidepid: boolean): { root: string; bin: string } {
  const gpuPid = 5001;
  const root = makeRoot({
    procs: [
      {
        pid: gpuPid,
        ppid: 1,
        comm: 'python3',
        uid: 1001,
        gpuFd: true,
        cmdline: ['python3', '/home/bob/train.py', '--hf-token', 'hf_BOBSECRET0123456789abc', '--epochs', '90'],
      },
    ],
  });
  fs.writeFileSync(path.join(root, 'proc/4242/mountinfo'), `${SYS}\n${hidepid ? PROC_HIDEPID2 : PROC_PLAIN}\n`);
  const bin = tempDir('ged-serve-vis-');
  fs.writeFileSync(
    path.join(bin, 'smi.xml'),
    fs
      .readFileSync(path.join(FIXTURES, 'h200/hog/nvidia-smi-q-hog.xml'), 'utf8')
      .replace('<pid>694</pid>', `<pid>${gpuPid}</pid>`),
  );
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${bin}/smi.xml' ;;
  --query-gpu=*) cat '${FIXTURES}/h200/idle/query-gpu.csv' ;;
  *) exit 2 ;;
esac`,
  );
  return { root, bin };
}

async function page(m: { root: string; bin: string }, extra: string[]): Promise<string> {
  const s = await startServe(['--root', m.root, '--check-interval', '0', '--interval', '0.5', ...extra], {
    PATH: `${m.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  });
  servers.push(s);
  return until('the holder on the page', async () => {
    const r = await get(`${s.base}/state.json`);
    return r.body.includes('"pid":5001') ? r.body : null;
  });
}

describe('serve: command lines end to end', () => {
  it("without hidepid: bob's command line, its token replaced", async () => {
    const json = await page(machine(false), []);
    expect(json).toContain('/home/bob/train.py --hf-token secret-1 --epochs 90');
    expect(json).not.toContain('BOBSECRET');
  }, 30000);

  it("with hidepid: bob's command line is not shown (the page says why); --show-all shows it, token still replaced", async () => {
    const m = machine(true);
    const json = await page(m, []);
    expect(json).not.toContain('train.py');
    expect(json).not.toContain('BOBSECRET');
    expect(json).toContain('"othersHidden":1');
    const html = (await get(servers[0]!.url)).body;
    expect(html).toContain('their command lines are not shown (--show-all shows them)');
    const all = await page(m, ['--show-all']);
    expect(all).toContain('/home/bob/train.py --hf-token secret-1 --epochs 90');
    expect(all).not.toContain('BOBSECRET');
  }, 40000);
});
