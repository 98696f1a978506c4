// The live page's model and HTML, from a shared server built on the real H200 capture (sample-state.ts).
import { describe, expect, it } from 'vitest';
import { MemoryHistory } from '../../src/report/serve/history.js';
import { buildPageModel, freeGpuLine, groupOf, type PageModel } from '../../src/report/serve/model.js';
import { FleetRedactor, ModelRedactor } from '../../src/report/serve/redact-model.js';
import { renderMain, renderPage, renderStatus, type RenderOptions } from '../../src/report/serve/render.js';
import { CLIENT_JS, CLIENT_JS_HASH, cspHash } from '../../src/report/serve/client.js';
import { NOW, PROCS, sampleSnapshot, sampleState } from './sample-state.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const OPTS: RenderOptions = {
  now: NOW + 1500,
  query: '',
  refreshS: 5,
  tool: 'gpu-env-doctor test',
  historyWindowMs: 3600_000,
};

describe('the page model', () => {
  const m = buildPageModel(wordsFor(getLang()), sampleState());

  it('per GPU: a segment per process (biggest culprits first), unattributed memory, free', () => {
    expect(m.gpus.map((g) => g.segments.map((s) => [s.kind, s.pid ?? null, s.group ?? null, s.miB]))).toEqual([
      [
        ['proc', 4242, 'active', 107_800],
        ['free', null, null, 143771 - 107_800],
      ],
      // bob's training job is working (100% CPU): active, whoever owns it (its user is on its row)
      [
        ['proc', 5161, 'stale', 2_050],
        ['proc', 5150, 'active', 61_000],
        ['free', null, null, 143771 - 63_050],
      ],
      [
        ['proc', 666, 'stale', 138_600],
        ['free', null, null, 143771 - 138_600],
      ],
      [['free', null, null, 143771]],
    ]);
    const gpu1 = m.gpus[1]!;
    expect(gpu1.procs.map((p) => [p.pid, p.user, p.verdict, p.age, p.command])).toEqual([
      [
        5161,
        'bob',
        'orphaned',
        '1h 30m',
        "python -c 'from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)' --multiprocessing-fork",
      ],
      [5150, 'bob', 'active', '30m 0s', 'python train.py --batch-size 64'],
    ]);
    // plain words; the session evidence is for -v (procs/leftover.ts)
    expect(gpu1.procs[0]!.reason).toBe(
      'a worker (multiprocessing, a DataLoader) whose Python parent has exited: a leftover of that job',
    );
  });

  it("the free GPU and the line that uses it, by UUID as check's fix spells it", () => {
    expect(m.gpus.map((g) => g.free)).toEqual([false, false, false, true]);
    expect(m.gpus[3]!.uuid).toMatch(/^GPU-/);
    expect(m.free).toEqual({
      known: true,
      indexes: [3],
      line: `export CUDA_VISIBLE_DEVICES=${m.gpus[3]!.uuid}`,
      allLine: null,
    });
    // without a UUID the numbers nvidia-smi shows, with the order that makes CUDA use them
    expect(freeGpuLine([{ index: 2, uuid: '' }])).toBe('export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=2');
    expect(freeGpuLine([])).toBeNull();
    expect(m.stale).toBe(2);
  });

  it("the holder's framework when the process probe names it, and what it means for its memory (src/gather/procfs/framework.ts)", () => {
    expect(m.gpus[0]!.procs[0]!.framework).toEqual({
      name: 'jax',
      label: 'JAX',
      evidence: ['jax_plugins/xla_cuda13/xla_cuda_plugin.so'],
    });
    expect(m.gpus[0]!.policies).toEqual([
      {
        pid: 4242,
        framework: 'jax',
        summary:
          'JAX, preallocating 75% of the GPU at its first operation (XLA_PYTHON_CLIENT_PREALLOCATE not set in it): 105.3 GiB ≈ 75% of 140.4 GiB',
        remedy: expect.stringContaining('XLA_PYTHON_CLIENT_PREALLOCATE=false'),
      },
    ]);
    expect(m.gpus[1]!.policies.map((p) => [p.pid, p.framework])).toEqual([[5150, 'torch']]);
    const html = renderMain(wordsFor(getLang()), m, OPTS);
    expect(html).toContain(
      '<p class="policy" data-framework="jax" data-pid="4242">What this means for PID 4242: JAX, preallocating 75% of the GPU',
    );
    expect(html).toContain(
      '<span class="fw">JAX</span><span class="fw-ev">jax_plugins/xla_cuda13/xla_cuda_plugin.so</span>',
    );
    // no framework (not recognised, maps unreadable, or an older snapshot): nothing claimed
    const bare = buildPageModel(wordsFor(getLang()), sampleState({ frameworks: false }));
    expect(bare.gpus.flatMap((g) => g.procs.map((p) => p.framework))).toEqual([null, null, null, null]);
    expect(bare.gpus.flatMap((g) => g.policies)).toEqual([]);
  });

  it('any verdict string is shown with its reason (a new verdict needs no change here)', () => {
    expect(groupOf('unknown')).toBe('unknown');
    expect(groupOf('something new')).toBe('unknown');
    expect(groupOf('zombie')).toBe('stale');
    const changed: PageModel = JSON.parse(JSON.stringify(m));
    Object.assign(changed.gpus[2]!.procs[0]!, {
      verdict: 'unknown',
      reason: 'its parent is alive but not its launcher: cannot tell',
      group: 'unknown',
      stale: false,
    });
    const html = renderMain(wordsFor(getLang()), changed, OPTS);
    expect(html).toContain('<tr data-pid="666" data-verdict="unknown">');
    expect(html).toContain(
      '<span class="verdict-unknown">unknown</span><span class="reason">its parent is alive but not its launcher: cannot tell</span>',
    );
  });

  it("the checks' findings, worst first, with their fix; refreshed on their own clock", () => {
    expect(m.checks.at).toBe(NOW - 20_000);
    expect(m.checks.everyMs).toBe(60_000);
    expect(m.checks.items.length).toBeGreaterThan(0);
    const rank = { fail: 3, warn: 2, unknown: 1 };
    const ranks = m.checks.items.map((f) => rank[f.mark]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const hog = m.checks.items.find((f) => f.message.includes('PID 666'))!;
    expect(hog).toMatchObject({ mark: 'warn', check: 'memory.holders' });
    expect(hog.fixText).toBeTruthy();
    const html = renderMain(wordsFor(getLang()), m, OPTS);
    expect(html).toMatch(/checked <span data-ago="\d+">22 s<\/span> ago, every 60 s/);
  });

  it("one spelling of the free GPU: the top line is the check block's command", () => {
    // GPUs 0-2 full, so that check's "move the job to the roomy GPU" names the free one
    const st = sampleState();
    const snap = st.good!.snapshot;
    if (!snap.nvidia.ok) throw new Error('the sample has GPUs');
    for (const g of snap.nvidia.gpus.slice(0, 3)) {
      g.memory.usedMiB = g.memory.totalMiB - 500;
      g.memory.freeMiB = 500;
    }
    st.checks.findings = runChecks(ALL_CHECKS, snap).flatMap((r) => r.findings);
    const full = buildPageModel(wordsFor(getLang()), st);
    expect(full.free.indexes).toEqual([3]);
    const moveTo = full.checks.items.flatMap((f) => f.commands).filter((c) => c.includes('CUDA_VISIBLE_DEVICES'));
    expect(moveTo.length).toBeGreaterThan(0);
    for (const c of moveTo) expect(c).toBe(full.free.line);
    const html = renderMain(wordsFor(getLang()), full, OPTS);
    expect(html).toContain(`<pre id="free-line">${full.free.line}\npython train.py</pre>`);
    expect(html).not.toContain('CUDA_DEVICE_ORDER');
  });

  it('says when nvidia-smi hangs, and keeps the last figures with their time', () => {
    const st = sampleState();
    st.inFlightSince = st.now - 9000;
    const hung = buildPageModel(wordsFor(getLang()), st);
    expect(hung.status.kind).toBe('hanging');
    expect(hung.free.known).toBe(false);
    expect(hung.gpus).toHaveLength(4);
    expect(renderStatus(wordsFor(getLang()), hung, st.now)).toBe(
      `<p class="status hanging" data-kind="hanging" role="alert"><span class="mark fail">✗</span> nvidia-smi has not answered for <span data-ago="${st.now - 9000}">9 s</span>: the driver may be hung (a GPU fallen off the bus, or a process stuck in the kernel). The figures below are from 14:00:00 UTC (<span data-ago="${NOW}">2 s</span> ago).</p>`,
    );
    // in flight but not yet long: still live
    st.inFlightSince = st.now - 500;
    expect(buildPageModel(wordsFor(getLang()), st).status.kind).toBe('ok');
  });

  it('says when nvidia-smi fails or is gone, and shows the device-file holders it can still see', () => {
    const st = sampleState();
    const failed = sampleSnapshot();
    failed.nvidia = { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' } };
    failed.processes.list = failed.processes.list.map((p) => ({ ...p, listedByNvidiaSmi: false, gpus: [] }));
    st.latest = { snapshot: failed, at: st.now };
    st.failingSince = st.now - 60_000;
    const m2 = buildPageModel(wordsFor(getLang()), st);
    expect(m2.status).toMatchObject({
      kind: 'failed',
      failure: 'nvidia-smi was not found on PATH',
      since: st.now - 60_000,
    });
    expect(m2.deviceHolders.map((p) => p.pid).sort((a, b) => a - b)).toEqual([666, 4242, 5150, 5161]);
    expect(renderStatus(wordsFor(getLang()), m2, st.now)).toContain(
      'nvidia-smi could not answer: nvidia-smi was not found on PATH (for <span data-ago=',
    );
    // never answered at all
    st.good = null;
    expect(buildPageModel(wordsFor(getLang()), st).gpus).toEqual([]);
    expect(renderMain(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), st), OPTS)).toContain(
      'Which GPUs are free is not known: nvidia-smi is not answering.',
    );
  });

  it('waits for the first answer before saying anything about the GPUs', () => {
    const st = sampleState();
    st.good = null;
    st.latest = null;
    st.inFlightSince = st.now - 1000;
    const w = buildPageModel(wordsFor(getLang()), st);
    expect(w.status.kind).toBe('waiting');
    expect(renderStatus(wordsFor(getLang()), w, st.now)).toContain(
      'Waiting for the first answer from nvidia-smi (asked <span data-ago=',
    );
  });
});

describe('the page HTML', () => {
  const html = renderPage(
    wordsFor(getLang()),
    buildPageModel(wordsFor(getLang()), sampleState({ hostile: true })),
    OPTS,
  );

  it('escapes every value: a hostile command line is text', () => {
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).not.toMatch(/<img/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it('has no inline handler and no style attribute (the CSP forbids both), and its one script is the hashed one', () => {
    const tags = html.replace(/"[^"]*"/g, '""').match(/<[^>]*>/g)!; // attribute values emptied: they are text
    expect(tags.filter((t) => /\son[a-z]+=/i.test(t) || /\sstyle=/i.test(t))).toEqual([]);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(script).toBe(CLIENT_JS);
    expect(cspHash(script)).toBe(CLIENT_JS_HASH);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(style.length).toBeGreaterThan(1000);
  });

  it('is complete without scripts: it reloads itself, with the token when there is one', () => {
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="5;url=/"></noscript>');
    const withToken = renderPage(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), sampleState()), {
      ...OPTS,
      query: '?token=a%22b',
    });
    expect(withToken).toContain('<noscript><meta http-equiv="refresh" content="5;url=/?token=a%22b"></noscript>');
    expect(withToken).toContain('data-events="/events?token=a%22b"');
  });

  it('draws an hour of memory per GPU, bounded, broken where nothing was read', () => {
    const main = renderMain(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), sampleState()), OPTS);
    const counts = [...main.matchAll(/class="timeline"[^>]*data-points="(\d+)"/g)].map((x) => Number(x[1]));
    expect(counts).toEqual([361, 361, 349, 361]);
    // GPU 2 was not read for two minutes: its line has two pieces
    const gpu2 = main.slice(main.indexOf('id="gpu-2"'), main.indexOf('id="gpu-3"'));
    expect(gpu2.match(/<polyline/g)).toHaveLength(2);
  });
});

describe('--redact', () => {
  it('hides user names and command lines, consistently from one update to the next', () => {
    const r = new ModelRedactor();
    const st = sampleState();
    r.observe(st.good!.snapshot);
    const a = r.apply(buildPageModel(wordsFor(getLang()), st));
    const text = JSON.stringify(a);
    for (const secret of ['alice', 'bob', 'train_jax.py', 'train.py', 'spawn_main', 'gpu-node-17', 'GPU-3860b93c'])
      expect(text).not.toContain(secret);
    const users = a.gpus.flatMap((g) => g.procs.map((p) => p.user));
    expect(users).toEqual(['user-1', 'user-2', 'user-2', 'root']);
    expect(a.gpus[0]!.procs[0]!.command).toBe('python3');
    expect(a.host).toBe('host-1');
    // the page's own words are left alone even when a user has such a name
    expect(a.gpus[1]!.procs[1]!.verdict).toBe('active');
    // the free GPU's UUID is hidden as the check block hides it
    expect(a.free.line).toBe('export CUDA_VISIBLE_DEVICES=GPU-UUID-4');
    // a new user later does not renumber the others
    const later = sampleState();
    later.good!.snapshot.processes.list.unshift({ ...PROCS.jax, pid: 10, user: 'carol', uid: 1002 });
    r.observe(later.good!.snapshot);
    const b = r.apply(buildPageModel(wordsFor(getLang()), later));
    expect(b.gpus[0]!.procs.find((p) => p.pid === 4242)!.user).toBe('user-1');
    expect(r.redactor.text('carol')).toBe('user-3');
  });

  it('the fleet page: host names, users and commands', () => {
    const m = new FleetRedactor().apply({
      machines: [
        {
          file: 'snaps/node-a.json',
          host: 'node-a',
          users: ['alice'],
          stale: [{ name: 'python3', command: 'python3 /home/alice/secret.py', user: 'alice' }],
        },
      ],
      redacted: false,
    });
    const text = JSON.stringify(m);
    expect(text).not.toContain('alice');
    expect(text).not.toContain('node-a');
    expect(text).not.toContain('secret.py');
    expect(m.redacted).toBe(true);
  });
});

describe('the hour of history', () => {
  it('keeps the highest reading of each bucket, drops what is older than the window, forgets a vanished GPU', () => {
    const h = new MemoryHistory({ windowMs: 60_000, buckets: 6 });
    h.add(0, { uuid: 'A', index: 0, usedMiB: 5, totalMiB: 100 });
    h.add(3000, { uuid: 'A', index: 0, usedMiB: 9, totalMiB: 100 });
    h.add(6000, { uuid: 'A', index: 0, usedMiB: 1, totalMiB: 100 });
    h.add(10_000, { uuid: 'A', index: 0, usedMiB: 2, totalMiB: 100 });
    expect(h.snapshot(10_000)[0]!.points).toEqual([
      { t: 0, usedMiB: 9 },
      { t: 10_000, usedMiB: 2 },
    ]);
    h.add(70_001, { uuid: 'B', index: 1, usedMiB: 7, totalMiB: 100 });
    // a bucket stays while any of it is inside the window
    expect(h.snapshot(70_001).map((g) => [g.uuid, g.points.map((p) => p.t)])).toEqual([
      ['A', [10_000]],
      ['B', [70_000]],
    ]);
    expect(h.snapshot(200_000)).toEqual([]);
  });

  it('holds at most one bucket per slot whatever runs through it: a week of readings every 30 s on 8 GPUs', () => {
    const h = new MemoryHistory();
    const week = 7 * 24 * 3600_000;
    for (let t = 0; t < week; t += 30_001)
      for (let g = 0; g < 8; g++) h.add(t, { uuid: `G${g}`, index: g, usedMiB: (t / 1000) % 1000, totalMiB: 1000 });
    expect(h.size()).toBeLessThanOrEqual(8 * 361);
    expect(h.size()).toBeGreaterThanOrEqual(8 * 120); // one reading per 30 s: every third 10 s bucket
  });
});
