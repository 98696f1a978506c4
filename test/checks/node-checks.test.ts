// The node layer: facts parsed from real outputs (test/fixtures/node: the H200's nvidia-smi -q -x and a copy with
// six values changed, Docker's default /dev/shm mount from the NVIDIA container toolkit's tests), and each check's
// verdict on the real H200 snapshot with those facts planted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clocksCheck } from '../../src/judge/checks/node/clocks.js';
import { computeModeCheck } from '../../src/judge/checks/node/compute-mode.js';
import { deviceNodesCheck } from '../../src/judge/checks/node/device-nodes.js';
import { pcieLinkCheck } from '../../src/judge/checks/node/pcie-link.js';
import { persistenceCheck } from '../../src/judge/checks/node/persistence.js';
import { shmCheck } from '../../src/judge/checks/node/shm.js';
import { setLang } from '../../src/base/i18n/index.js';
import { parseShmMount } from '../../src/gather/system.js';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { runCli } from '../helpers/cli.js';
import { planted } from '../helpers/snapshots.js';
import { buildH200Tree, H200_ENV } from '../libs/h200-tree.js';

const F = path.resolve(__dirname, '../fixtures/node');
const read = (f: string) => fs.readFileSync(path.join(F, f), 'utf8');
const real = parseSmiXml(read('h200-nvidia-smi-q.xml'));
const degraded = parseSmiXml(read('h200-nvidia-smi-q-degraded.xml'));

/** The idle H200 snapshot with GPU 0's facts from a parsed XML (and an optional change). */
function withGpu(
  xml: typeof real,
  name: 'h200-idle' | 'h200-memory-held' = 'h200-idle',
  change: (s: Snapshot) => void = () => {},
): Snapshot {
  return planted(name, (s) => {
    if (!s.nvidia.ok) throw new Error('no GPU');
    const g = s.nvidia.gpus[0]!;
    const p = xml.gpus[0]!;
    Object.assign(g, {
      persistenceMode: p.persistenceMode,
      computeMode: p.computeMode,
      pcie: p.pcie,
      clockEventReasons: p.clockEventReasons,
    });
    change(s);
  });
}

describe('parsing the node facts from nvidia-smi -q -x (the H200 capture)', () => {
  it('PCIe link and the Active clock event reasons', () => {
    expect(real.gpus[0]).toMatchObject({
      persistenceMode: 'Enabled',
      computeMode: 'Default',
      migMode: 'Disabled',
      pcie: { genCurrent: 5, genMax: 5, widthCurrent: 16, widthMax: 16 },
      clockEventReasons: ['gpu_idle'],
    });
    expect(degraded.gpus[0]).toMatchObject({
      persistenceMode: 'Disabled',
      computeMode: 'Exclusive_Process',
      pcie: { widthCurrent: 8, widthMax: 16 },
      clockEventReasons: ['sw_power_cap', 'hw_thermal_slowdown'],
    });
  });
  it('drivers before 535 name the block clocks_throttle_reasons', () => {
    const old = read('h200-nvidia-smi-q-degraded.xml').replace(/clocks_event_reason/g, 'clocks_throttle_reason');
    expect(parseSmiXml(old).gpus[0]!.clockEventReasons).toEqual(['sw_power_cap', 'hw_thermal_slowdown']);
  });
});

describe('the node checks', () => {
  beforeAll(() => setLang('en'));
  it('the idle H200 as captured: nothing to say', () => {
    const s = withGpu(real);
    for (const c of [persistenceCheck, pcieLinkCheck, clocksCheck, computeModeCheck, deviceNodesCheck])
      expect(c.evaluate(s), c.id).toEqual([]);
  });
  it('persistence off: a note (slow, not failed), with the daemon as the fix', () => {
    const [f] = persistenceCheck.evaluate(withGpu(degraded));
    expect(f).toMatchObject({
      severity: 'info',
      status: 'warn',
      message: expect.stringMatching(/Persistence mode is off on GPU 0: .*slow, not failed/),
    });
    expect(f!.fix!.manual).toEqual(['sudo systemctl enable --now nvidia-persistenced']);
  });
  it('a link trained to x8 of x16: slow, not failed; a lower generation while idle is not reported', () => {
    const [f] = pcieLinkCheck.evaluate(withGpu(degraded));
    expect(f).toMatchObject({
      severity: 'warn',
      message:
        "GPU 0's PCIe link runs at gen 5 x8 of gen 5 x16: transfers to and from the GPU are slower (slow, not failed)",
    });
    const idleGen = withGpu(real, 'h200-idle', (s) => {
      if (s.nvidia.ok) s.nvidia.gpus[0]!.pcie = { genCurrent: 1, genMax: 5, widthCurrent: 16, widthMax: 16 };
    });
    expect(pcieLinkCheck.evaluate(idleGen)).toEqual([]);
  });
  it('power cap and hardware thermal slowdown Active: a warning tagged as hardware', () => {
    const [f] = clocksCheck.evaluate(withGpu(degraded));
    expect(f).toMatchObject({
      severity: 'warn',
      rootCause: 'hardware_or_driver_fault',
      message: 'GPU 0 runs slowed down by sw_power_cap, hw_thermal_slowdown (slow, not failed)',
    });
  });
  it('EXCLUSIVE_PROCESS: fine while nobody holds the GPU, an error with a holder, never for an MPS server', () => {
    expect(computeModeCheck.evaluate(withGpu(degraded))).toEqual([
      expect.objectContaining({
        severity: 'info',
        status: 'ok',
        message: 'GPU 0 is in Exclusive_Process compute mode: one process at a time (none now)',
      }),
    ]);
    const held = computeModeCheck.evaluate(withGpu(degraded, 'h200-memory-held'));
    expect(held).toEqual([
      expect.objectContaining({
        severity: 'error',
        rootCause: 'no_device_visible',
        message:
          'GPU 0 is in Exclusive_Process compute mode and process 589 already holds it: every other process is refused',
      }),
    ]);
    expect(held[0]!.fix!.manual).toEqual(['sudo nvidia-smi -i 0 -c DEFAULT']);
    const mps = computeModeCheck.evaluate(
      withGpu(degraded, 'h200-memory-held', (s) => {
        if (s.nvidia.ok)
          s.nvidia.gpus[0]!.processes = [
            { pid: 77, name: '/usr/local/nvidia/bin/nvidia-cuda-mps-server', usedMiB: 30 },
          ];
      }),
    );
    expect(mps).toEqual([
      expect.objectContaining({
        severity: 'info',
        status: 'ok',
        message: 'GPU 0 is exclusive to the MPS server (PID 77): CUDA clients share it through MPS',
      }),
    ]);
  });
  it('a GPU listed by nvidia-smi without its /dev/nvidiaN: an error', () => {
    const s = withGpu(real, 'h200-idle', (x) => {
      x.system.nvidiaDevices = x.system.nvidiaDevices.filter((d) => d !== '/dev/nvidia0');
    });
    expect(deviceNodesCheck.evaluate(s)).toEqual([
      expect.objectContaining({
        severity: 'error',
        rootCause: 'no_device_visible',
        message: '0 GPU device nodes (/dev/nvidiaN) for 1 GPUs nvidia-smi lists; missing control nodes: -',
      }),
    ]);
  });
  it('no /dev/nvidia* at all while nvidia-smi answers: another /dev (--root), nothing compared', () => {
    const s = withGpu(real, 'h200-idle', (x) => {
      x.system.nvidiaDevices = [];
    });
    expect(deviceNodesCheck.applies!(s)).toBe('no /dev/nvidia* in view here (another root?)');
  });
  it("Docker's default /dev/shm (64 MiB) in a container: a warning for DataLoader workers and NCCL, fixed at container start", () => {
    const oci = JSON.parse(read('docker-oci-shm-mount.json')) as { options: string[] };
    expect(oci.options).toContain('size=67108864');
    const shm = parseShmMount(read('docker-default-mounts.txt'));
    expect(shm).toEqual({
      sizeBytes: 67108864,
      line: 'shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0',
    });
    const s = planted('h200-idle', (x) => {
      x.system.shm = shm;
    });
    const [f] = shmCheck.evaluate(s);
    expect(f).toMatchObject({
      severity: 'warn',
      message:
        "/dev/shm is 64 MiB in this container (Docker's default is 64 MiB): PyTorch DataLoader workers and NCCL put their shared memory there",
    });
    expect(f!.fix!.manual).toEqual(['docker run --shm-size=16g … (or --ipc=host)']);
    // a host's /dev/shm without size= (half the RAM) or a large one: nothing to say
    expect(
      shmCheck.evaluate(
        planted('h200-idle', (x) => {
          x.system.shm = parseShmMount('tmpfs /dev/shm tmpfs rw,nosuid,nodev,inode64 0 0');
        }),
      ),
    ).toEqual([]);
    expect(
      shmCheck.evaluate(
        planted('h200-idle', (x) => {
          x.system.shm = parseShmMount('shm /dev/shm tmpfs rw,size=16g 0 0');
        }),
      ),
    ).toEqual([]);
  });
  it('in Chinese', () => {
    setLang('zh');
    try {
      expect(persistenceCheck.evaluate(withGpu(degraded))[0]!.message).toMatch(/持久模式已关闭.*（变慢，不是失败）/);
    } finally {
      setLang('en');
    }
  });
});

describe('node.driver-library on the H200 tree (check --root)', () => {
  let root = '';
  beforeAll(() => {
    root = buildH200Tree();
  }, 120000);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const run = () =>
    JSON.parse(runCli(['check', '--json', '--root', root], { env: H200_ENV }).stdout) as {
      findings: { check: string; severity: string; status: string; message: string; rootCause: string | null }[];
    };
  it('libcuda and NVML 580.159.04 under the module 580.159.04: ok', () => {
    const f = run().findings.filter((x) => x.check === 'node.driver-library');
    expect(f).toEqual([
      expect.objectContaining({
        status: 'ok',
        message: 'libcuda and NVML are the same release as the kernel module (580.159.04)',
      }),
    ]);
  });
  it('the module still 575.57.08 after an upgrade without reboot: an error per file', () => {
    const v = path.join(root, 'proc/driver/nvidia/version');
    const orig = fs.readFileSync(v, 'utf8');
    fs.writeFileSync(v, orig.replace('580.159.04', '575.57.08'));
    try {
      const f = run().findings.filter((x) => x.check === 'node.driver-library');
      expect(f.map((x) => [x.severity, x.rootCause, x.message])).toEqual([
        [
          'error',
          'hardware_or_driver_fault',
          'libcuda 580.159.04 (/usr/local/nvidia/lib64/libcuda.so.580.159.04) does not match the loaded kernel module 575.57.08',
        ],
        [
          'error',
          'hardware_or_driver_fault',
          'libnvidia-ml 580.159.04 (/usr/local/nvidia/lib64/libnvidia-ml.so.580.159.04) does not match the loaded kernel module 575.57.08',
        ],
      ]);
    } finally {
      fs.writeFileSync(v, orig);
    }
  });
});
