// MIG: the facts parsed from public real outputs (test/fixtures/node/mig, README there: telegraf's A100 with MIG on,
// the container toolkit's `nvidia-smi -L`), the probe's third call only on a MIG GPU, MIG UUIDs in
// CUDA_VISIBLE_DEVICES accepted where MIG is on (both forms), the memory a job gets, and node.mig's verdicts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { interpretVisibleDevices, visibleDevicesCheck } from '../../../src/judge/checks/env/visible-devices.js';
import { migCheck } from '../../../src/judge/checks/node/mig.js';
import { deviceNodesCheck } from '../../../src/judge/checks/node/device-nodes.js';
import { parseSmiList } from '../../../src/gather/nvidia/parse-list.js';
import { parseSmiXml } from '../../../src/gather/nvidia/parse-xml.js';
import { mergeMigList, probeNvidia } from '../../../src/gather/nvidia/probe.js';
import { LIST_ARGS, QUERY_ARGS, XML_ARGS } from '../../../src/gather/nvidia/run.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../../../src/gather/probe-env.js';
import { createFileSystem } from '../../../src/ports/fs.js';
import type { Gpu, Snapshot } from '../../../src/gather/snapshot/schema.js';
import { fakeRunner, ok } from '../../helpers/fake-runner.js';
import { planted } from '../../helpers/snapshots.js';

const F = path.resolve(__dirname, '../../fixtures/node');
const read = (f: string) => fs.readFileSync(path.join(F, f), 'utf8');
const A100_XML = read('mig/telegraf-a100-sxm4-mig-v12.xml');
const L_NEW = read('mig/a100-smi-L-r470-layout.txt');
const L_OLD = read('mig/nvidia-container-toolkit-smi-L-r450.txt');
const A100_UUID = 'GPU-513536b6-7d19-9063-b049-1e69664bb298';

const a100 = (list: string | null): Gpu => {
  const g = parseSmiXml(A100_XML).gpus;
  const merged = list === null ? g : mergeMigList(g, parseSmiList(list));
  return { ...merged[0]!, computeCapability: '8.0' };
};
/** The idle H200 snapshot with its GPU replaced by the A100 (and the environment given). */
const withA100 = (gpu: Gpu, env: Record<string, string> = {}): Snapshot =>
  planted('h200-idle', (s) => {
    if (!s.nvidia.ok) throw new Error('no GPU');
    s.nvidia.gpus = [gpu];
    s.env = { ...s.env, ...env };
  });

beforeAll(() => setLang('en'));

describe('parsing MIG facts', () => {
  it("nvidia-smi -q -x: MIG on, four MIG devices with their GPU/compute instance ids and each one's memory", () => {
    const g = parseSmiXml(A100_XML).gpus[0]!;
    expect(g.migMode).toBe('Enabled');
    expect(g.memory.totalMiB).toBe(81920);
    expect(g.migDevices!.map((d) => [d.index, d.gpuInstanceId, d.computeInstanceId])).toEqual([
      [0, 3, 0],
      [1, 4, 0],
      [2, 5, 0],
      [3, 6, 0],
    ]);
    expect(g.migDevices![0]!.memory).toEqual({ totalMiB: 19968, usedMiB: 12, freeMiB: 19955 });
  });
  it('MIG off (the H200): no MIG devices', () => {
    expect(parseSmiXml(read('h200-nvidia-smi-q.xml')).gpus[0]!.migDevices).toBeUndefined();
  });
  it('nvidia-smi -L, both forms: the old UUID carries GPU and compute instance, the new one the profile', () => {
    expect(parseSmiList(L_OLD).get('gpu-b8ea3855-276c-c9cb-b366-c6fa655957c5')).toEqual([
      {
        index: 0,
        profile: null,
        uuid: 'MIG-GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5/1/0',
        gpuInstanceId: 1,
        computeInstanceId: 0,
      },
      {
        index: 1,
        profile: null,
        uuid: 'MIG-GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5/1/1',
        gpuInstanceId: 1,
        computeInstanceId: 1,
      },
      {
        index: 2,
        profile: null,
        uuid: 'MIG-GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5/11/0',
        gpuInstanceId: 11,
        computeInstanceId: 0,
      },
    ]);
    const d = a100(L_NEW).migDevices![0]!;
    expect(d).toEqual({
      index: 0,
      gpuInstanceId: 3,
      computeInstanceId: 0,
      profile: '1g.20gb',
      uuid: 'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2',
      memory: { totalMiB: 19968, usedMiB: 12, freeMiB: 19955 },
    });
  });
  it('the probe runs nvidia-smi -L only when a GPU has MIG on', async () => {
    const penv = (xml: string, list: string) => {
      const runner = fakeRunner([
        { command: 'nvidia-smi', args: XML_ARGS, result: ok(xml) },
        { command: 'nvidia-smi', args: QUERY_ARGS, result: ok('') },
        { command: 'nvidia-smi', args: LIST_ARGS, result: ok(list) },
      ]);
      const e: ProbeEnv = {
        fs: createFileSystem('/'),
        runner,
        env: {},
        now: () => Date.now(),
        pid: process.pid,
        options: DEFAULT_PROBE_OPTIONS,
      };
      return { e, runner };
    };
    const mig = penv(A100_XML, L_NEW);
    const n = await probeNvidia(mig.e);
    expect(n.ok && n.gpus[0]!.migDevices!.map((d) => d.uuid)).toEqual([
      'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2',
      'MIG-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c',
      'MIG-aeab3757-56a6-7e30-3f7c-1f322454bde2',
      'MIG-b1028956-cfa2-0990-bf4a-5da9abb51763',
    ]);
    expect(mig.runner.calls.map((c) => c.args.join(' '))).toContain('-L');
    const off = penv(read('h200-nvidia-smi-q.xml'), '');
    await probeNvidia(off.e);
    expect(off.runner.calls.map((c) => c.args.join(' '))).not.toContain('-L');
  });
});

describe('CUDA_VISIBLE_DEVICES with MIG UUIDs', () => {
  it('a MIG UUID of a MIG device here: accepted, and the job sees that device with its own memory', () => {
    const s = withA100(a100(L_NEW), { CUDA_VISIBLE_DEVICES: 'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2' });
    const f = visibleDevicesCheck.evaluate(s);
    expect(f).toEqual([
      expect.objectContaining({
        severity: 'info',
        status: 'ok',
        message:
          'CUDA_VISIBLE_DEVICES names MIG device MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2 on GPU 0 (1g.20gb, GPU instance 3, compute instance 0): the job sees 19955 of 19968 MiB free',
      }),
    ]);
  });
  it('the old form MIG-GPU-<uuid>/<gi>/<ci> is checked against the XML alone; an instance that is not there is not', () => {
    const g = a100(null);
    expect(interpretVisibleDevices(`MIG-${A100_UUID}/5/0`, [g], undefined)).toMatchObject({
      physical: [0],
      problem: null,
      mig: [{ gpu: 0, device: { gpuInstanceId: 5, computeInstanceId: 0 } }],
    });
    const bad = interpretVisibleDevices(`MIG-${A100_UUID}/9/0`, [g], undefined);
    expect(bad.problem).toMatch(/names no GPU of this machine/);
  });
  it('MIG off (the H200 as captured): a MIG UUID names no GPU, as before', () => {
    const s = planted('h200-idle', (x) => {
      x.env.CUDA_VISIBLE_DEVICES = 'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2';
    });
    expect(visibleDevicesCheck.evaluate(s)).toEqual([
      expect.objectContaining({ severity: 'error', rootCause: 'no_device_visible' }),
    ]);
  });
  it('two MIG devices: CUDA enumerates the first only, a warning names the one left out', () => {
    const s = withA100(a100(L_NEW), {
      CUDA_VISIBLE_DEVICES: 'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2,MIG-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c',
    });
    const f = visibleDevicesCheck.evaluate(s);
    expect(f.map((x) => x.severity)).toEqual(['info', 'warn']);
    expect(f[1]!.message).toBe(
      'CUDA_VISIBLE_DEVICES names several MIG devices: the job uses MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2 only; MIG-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c it does not see',
    );
  });
  it('MIG on but nvidia-smi -L not read: the new form can be neither confirmed nor refused (unknown, not an error)', () => {
    const s = withA100(a100(null), { CUDA_VISIBLE_DEVICES: 'MIG-3eb87630-93d5-b2b6-b8ff-9b359caf4ee2' });
    expect(visibleDevicesCheck.evaluate(s)).toEqual([
      expect.objectContaining({ severity: 'info', status: 'unknown', message: expect.stringMatching(/not checked/) }),
    ]);
  });
  it('a MIG UUID that is not among the listed ones: no such GPU', () => {
    const s = withA100(a100(L_NEW), { CUDA_VISIBLE_DEVICES: 'MIG-00000000-93d5-b2b6-b8ff-9b359caf4ee2' });
    expect(visibleDevicesCheck.evaluate(s)).toEqual([
      expect.objectContaining({ severity: 'error', rootCause: 'no_device_visible' }),
    ]);
  });
});

describe('node.mig', () => {
  it('MIG on with devices: each with its own memory (info)', () => {
    const f = migCheck.evaluate(withA100(a100(L_NEW)));
    expect(f).toEqual([
      expect.objectContaining({
        severity: 'info',
        message:
          'GPU 0 is split by MIG into 4 devices: 1g.20gb (19955 of 19968 MiB free), 1g.20gb (19955 of 19968 MiB free), 1g.20gb (19955 of 19968 MiB free), 1g.20gb (19955 of 19968 MiB free)',
      }),
    ]);
  });
  it('MIG on with no device made: an error (CUDA has nothing to run on)', () => {
    const xml = A100_XML.replace(
      /<mig_devices>[\s\S]*<\/mig_devices>/,
      '<mig_devices>\n\t\t\tNone\n\t\t</mig_devices>',
    );
    const g = { ...parseSmiXml(xml).gpus[0]!, computeCapability: '8.0' };
    const [f] = migCheck.evaluate(withA100(g));
    expect(f).toMatchObject({ severity: 'error', rootCause: 'no_device_visible' });
    expect(f!.fix!.manual).toContain('sudo nvidia-smi mig -i 0 -cgi <profile> -C');
  });
  it('MIG off: the check does not apply', () => {
    expect(migCheck.applies!(planted('h200-idle', () => {}))).toBe('no GPU has MIG on');
  });
});

describe('node.device-nodes by minor number (the telegraf A100: GPU 0 is minor_number 1, /dev/nvidia1)', () => {
  it('a /dev/nvidia0 in view does not stand for GPU 0: its own node /dev/nvidia1 is missing', () => {
    const g = a100(null);
    expect(g.minorNumber).toBe(1);
    const s = withA100(g);
    s.system.nvidiaDevices = ['/dev/nvidia0', '/dev/nvidiactl', '/dev/nvidia-uvm'];
    expect(deviceNodesCheck.evaluate(s)).toEqual([
      expect.objectContaining({
        severity: 'error',
        rootCause: 'no_device_visible',
        message:
          'No device node for GPU 0 (/dev/nvidia1), which nvidia-smi lists: CUDA cannot open it here; missing control nodes: -',
      }),
    ]);
    s.system.nvidiaDevices = ['/dev/nvidia1', '/dev/nvidiactl'];
    expect(deviceNodesCheck.evaluate(s)).toEqual([]);
  });
});
