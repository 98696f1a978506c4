// env.visible-devices: CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER / NVIDIA_VISIBLE_DEVICES, interpreted the way
// the CUDA runtime does: which physical GPUs a job here would see, and under which index.
import { fail, ok, unknown, warn, type Finding } from '../../finding.js';
import type { Gpu, MigDevice, Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';
import { describeMig } from '../node/mig.js';

export interface Visibility {
  /** physical GPUs (nvidia-smi index) in the order the job sees them: job index i → physical[i] */
  physical: number[];
  /** entries CUDA ignored: it stops at the first one that names no GPU */
  ignored: string[];
  problem: string | null;
  /** MIG devices named by UUID, in order: CUDA enumerates the first only; gpu/device null where it cannot be told */
  mig: Array<{ entry: string; gpu: number | null; device: MigDevice | null }>;
}

const migOn = (g: Gpu) => (g.migMode ?? '').toLowerCase() === 'enabled';

/**
 * A MIG device UUID: "MIG-GPU-<gpu uuid>/<gi>/<ci>" (drivers before 470) or "MIG-<uuid>" (from 470), valid only on
 * a GPU with MIG on. undefined: it names no MIG device here; gpu null: MIG is on but the UUIDs are not known.
 */
export function resolveMig(
  entry: string,
  gpus: readonly Gpu[],
): { gpu: number | null; device: MigDevice | null } | undefined {
  const old = /^MIG-(GPU-[0-9a-f-]+)\/(\d+)\/(\d+)$/i.exec(entry);
  if (old) {
    const g = gpus.find((x) => x.uuid.toLowerCase() === old[1]!.toLowerCase());
    if (!g || !migOn(g)) return undefined;
    const [gi, ci] = [Number(old[2]), Number(old[3])];
    const devices = g.migDevices ?? [];
    const d = devices.find((x) => x.gpuInstanceId === gi && x.computeInstanceId === ci) ?? null;
    return d || devices.length === 0 ? { gpu: g.index, device: d } : undefined;
  }
  const on = gpus.filter(migOn);
  if (on.length === 0) return undefined;
  const e = entry.toLowerCase();
  const hits = on.flatMap((g) =>
    (g.migDevices ?? []).filter((d) => d.uuid?.toLowerCase().startsWith(e)).map((d) => ({ gpu: g.index, device: d })),
  );
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) return undefined;
  // no UUIDs listed (nvidia-smi -L not read): a MIG device can be neither confirmed nor ruled out
  return on.every((g) => (g.migDevices ?? []).every((d) => d.uuid === null)) ? { gpu: null, device: null } : undefined;
}

/**
 * CUDA parses CUDA_VISIBLE_DEVICES left to right and stops at the first invalid entry; entries are indexes
 * (in CUDA_DEVICE_ORDER: FASTEST_FIRST by default, PCI_BUS_ID like nvidia-smi) or (unique prefixes of) UUIDs.
 * Empty, "-1" or "NoDevFiles" hides every GPU.
 */
export function interpretVisibleDevices(
  value: string | undefined,
  gpus: readonly Gpu[],
  order: string | undefined,
): Visibility {
  const all = gpus.map((g) => g.index);
  if (value === undefined) return { physical: all, ignored: [], problem: null, mig: [] };
  const entries = value.split(',').map((e) => e.trim());
  if (value.trim() === '' || entries[0] === '-1' || /^nodevfiles$/i.test(value.trim())) {
    return { physical: [], ignored: [], problem: t('cvd.hidesAll', { value }), mig: [] };
  }
  const cudaOrder = cudaEnumeration(gpus, order);
  const physical: number[] = [];
  const mig: Visibility['mig'] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    let hit: number | undefined;
    if (/^MIG-/i.test(e)) {
      const m = resolveMig(e, gpus);
      if (m) {
        mig.push({ entry: e, ...m });
        if (m.gpu === null || physical.includes(m.gpu)) continue;
        physical.push(m.gpu);
        continue;
      }
    } else if (/^\d+$/.test(e)) hit = cudaOrder[Number(e)];
    else if (/^GPU-/i.test(e)) {
      const matches = gpus.filter((g) => g.uuid.toLowerCase().startsWith(e.toLowerCase()));
      hit = matches.length === 1 ? matches[0]!.index : undefined;
    }
    if (hit === undefined || physical.includes(hit)) {
      const ignored = entries.slice(i);
      return {
        physical,
        ignored,
        problem: t(physical.length === 0 && mig.length === 0 ? 'cvd.noSuchNone' : 'cvd.noSuch', { entry: e }),
        mig,
      };
    }
    physical.push(hit);
  }
  return { physical, ignored: [], problem: null, mig };
}

/**
 * The order CUDA numbers GPUs. PCI_BUS_ID is nvidia-smi's order. FASTEST_FIRST (the default) puts the
 * fastest first; for identical GPUs it is the PCI order too. We approximate "fastest" by compute
 * capability then memory, which is what decides it in practice on mixed machines.
 */
export function cudaEnumeration(gpus: readonly Gpu[], order: string | undefined): number[] {
  const pci = [...gpus].sort((a, b) => a.index - b.index);
  if ((order ?? 'FASTEST_FIRST').toUpperCase() === 'PCI_BUS_ID') return pci.map((g) => g.index);
  const cc = (g: Gpu) => Number(g.computeCapability ?? '0');
  return [...pci]
    .sort((a, b) => cc(b) - cc(a) || b.memory.totalMiB - a.memory.totalMiB || a.index - b.index)
    .map((g) => g.index);
}

export const visibleDevicesCheck: Check = {
  id: 'env.visible-devices',
  category: 'env',
  get title() {
    return t('title.env.visible-devices');
  },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const cvd = s.env.CUDA_VISIBLE_DEVICES;
    const nvd = s.env.NVIDIA_VISIBLE_DEVICES;
    if (nvd !== undefined && /^(void|none|)$/i.test(nvd.trim())) {
      out.push(
        warn({
          check: this.id,
          rootCause: 'no_device_visible',
          message: t('cvd.nvd', { value: nvd }),
          evidence: [{ text: `NVIDIA_VISIBLE_DEVICES=${nvd}`, source: 'environment' }],
          affects: { env: 'NVIDIA_VISIBLE_DEVICES' },
          fix: { text: t('cvd.nvdFix'), commands: [] },
        }),
      );
    }
    if (!s.nvidia.ok) return out;
    const gpus = s.nvidia.gpus;
    const v = interpretVisibleDevices(cvd, gpus, s.env.CUDA_DEVICE_ORDER);
    const evidence = [
      {
        text: `CUDA_VISIBLE_DEVICES=${cvd === undefined ? '(unset)' : `"${cvd}"`}${
          s.env.CUDA_DEVICE_ORDER ? `, ` + `CUDA_DEVICE_ORDER=${s.env.CUDA_DEVICE_ORDER}` : ''
        }`,
        source: 'environment',
      },
    ];
    out.push(...migFindings(this.id, v, gpus, evidence));
    if (v.problem) {
      out.push(
        fail({
          check: this.id,
          severity: v.physical.length === 0 && v.mig.length === 0 ? 'error' : 'warn',
          rootCause: 'no_device_visible',
          message: v.problem,
          evidence: [
            ...evidence,
            {
              text: t('cvd.gpusHere', { list: gpus.map((g) => `${g.index} (${g.uuid})`).join(', ') || t('cvd.none') }),
              source: 'nvidia-smi -q -x',
            },
          ],
          affects: { env: 'CUDA_VISIBLE_DEVICES' },
          fix: {
            text: t(cvd === '' ? 'cvd.fixEmpty' : 'cvd.fix', { max: Math.max(0, gpus.length - 1) }),
            commands:
              gpus.length > 0
                ? [`export CUDA_VISIBLE_DEVICES=${gpus.map((g) => g.index).join(',')}`, 'nvidia-smi -L']
                : ['nvidia-smi -L'],
          },
        }),
      );
      return out;
    }
    if (cvd !== undefined && v.physical.some((p, i) => p !== i)) {
      out.push(
        ok({
          check: this.id,
          message: t('cvd.sees', {
            mapping: v.physical
              .map((p, i) => t('cvd.mapping', { i, p, name: gpus.find((g) => g.index === p)?.name ?? '?' }))
              .join(t('list.comma')),
          }),
          details: t('cvd.seesDetails'),
          evidence,
          affects: { env: 'CUDA_VISIBLE_DEVICES' },
        }),
      );
    }
    const mixed = new Set(gpus.map((g) => `${g.name}/${g.computeCapability}`)).size > 1;
    const usesIndexes = cvd?.split(',').some((e) => /^\d+$/.test(e.trim())) === true;
    if (mixed && usesIndexes && (s.env.CUDA_DEVICE_ORDER ?? '').toUpperCase() !== 'PCI_BUS_ID') {
      out.push(
        warn({
          check: this.id,
          rootCause: 'no_device_visible',
          message: t('cvd.mixed'),
          evidence,
          affects: { env: 'CUDA_DEVICE_ORDER' },
          fix: { text: t('cvd.mixedFix'), commands: ['export CUDA_DEVICE_ORDER=PCI_BUS_ID'] },
        }),
      );
    }
    return out;
  },
};

/** MIG devices named in CUDA_VISIBLE_DEVICES: the one the job gets, with its own memory; CUDA enumerates one only. */
function migFindings(
  check: string,
  v: Visibility,
  gpus: readonly Gpu[],
  evidence: { text: string; source: string }[],
): Finding[] {
  if (v.mig.length === 0) return [];
  const first = v.mig[0]!;
  const d = first.device;
  const out: Finding[] = [];
  const listed = gpus
    .filter((g) => g.migDevices?.length)
    .map((g) => ({
      text: `GPU ${g.index} MIG devices: ${g.migDevices!.map((m) => `#${m.index} ${describeMig(m)}`).join(' | ')}`,
      source: 'nvidia-smi -q -x mig_devices, nvidia-smi -L',
    }));
  const mig = {
    check,
    message:
      first.gpu === null
        ? t('cvd.migUnchecked', { entry: first.entry })
        : t('cvd.mig', {
            entry: first.entry,
            gpu: first.gpu,
            profile: d?.profile ?? '?',
            gi: d?.gpuInstanceId ?? '?',
            ci: d?.computeInstanceId ?? '?',
            free: d?.memory.freeMiB ?? '?',
            total: d?.memory.totalMiB ?? '?',
          }),
    details: t('cvd.migDetails'),
    evidence: [...evidence, ...listed],
    affects: { env: 'CUDA_VISIBLE_DEVICES', ...(first.gpu !== null ? { gpu: first.gpu } : {}) },
  };
  // a MIG device it could not tie to a GPU is not known to work
  out.push(first.gpu === null ? unknown({ ...mig, severity: 'info', rootCause: null }) : ok(mig));
  if (v.mig.length > 1)
    out.push(
      warn({
        check,
        rootCause: 'no_device_visible',
        message: t('cvd.migOne', {
          first: first.entry,
          rest: v.mig
            .slice(1)
            .map((m) => m.entry)
            .join(', '),
        }),
        consequences: [
          {
            outcome: 'runs',
            certainty: 'expected',
            text: t('cvd.migOneConsequence'),
            source:
              'NVIDIA MIG user guide, CUDA device enumeration: ' +
              'a single CUDA process can only enumerate a single MIG device',
          },
        ],
        evidence,
        affects: { env: 'CUDA_VISIBLE_DEVICES' },
        fix: { text: t('cvd.migOneFix'), commands: [`export CUDA_VISIBLE_DEVICES=${first.entry}`, 'nvidia-smi -L'] },
      }),
    );
  return out;
}
