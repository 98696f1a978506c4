// env.visible-devices: CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER / NVIDIA_VISIBLE_DEVICES, interpreted the way
// the CUDA runtime does: which physical GPUs a job here would see, and under which index.
import { finding, type Finding } from '../../finding.js';
import type { Gpu, Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export interface Visibility {
  /** physical GPUs (nvidia-smi index) in the order the job sees them: job index i → physical[i] */
  physical: number[];
  /** entries CUDA ignored: it stops at the first one that names no GPU */
  ignored: string[];
  problem: string | null;
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
  if (value === undefined) return { physical: all, ignored: [], problem: null };
  const entries = value.split(',').map((e) => e.trim());
  if (value.trim() === '' || entries[0] === '-1' || /^nodevfiles$/i.test(value.trim())) {
    return { physical: [], ignored: [], problem: t('cvd.hidesAll', { value }) };
  }
  const cudaOrder = cudaEnumeration(gpus, order);
  const physical: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    let hit: number | undefined;
    if (/^\d+$/.test(e)) hit = cudaOrder[Number(e)];
    else if (/^(GPU|MIG)-/i.test(e)) {
      const matches = gpus.filter((g) => g.uuid.toLowerCase().startsWith(e.toLowerCase()));
      hit = matches.length === 1 ? matches[0]!.index : undefined;
    }
    if (hit === undefined || physical.includes(hit)) {
      const ignored = entries.slice(i);
      return {
        physical,
        ignored,
        problem: t(physical.length === 0 ? 'cvd.noSuchNone' : 'cvd.noSuch', { entry: e }),
      };
    }
    physical.push(hit);
  }
  return { physical, ignored: [], problem: null };
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
        finding({
          check: this.id,
          severity: 'warn',
          status: 'warn',
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
        text: `CUDA_VISIBLE_DEVICES=${cvd === undefined ? '(unset)' : `"${cvd}"`}${s.env.CUDA_DEVICE_ORDER ? `, CUDA_DEVICE_ORDER=${s.env.CUDA_DEVICE_ORDER}` : ''}`,
        source: 'environment',
      },
    ];
    if (v.problem) {
      out.push(
        finding({
          check: this.id,
          severity: v.physical.length === 0 ? 'error' : 'warn',
          status: 'fail',
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
        finding({
          check: this.id,
          severity: 'info',
          status: 'ok',
          rootCause: null,
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
    const usesIndexes = cvd !== undefined && cvd.split(',').some((e) => /^\d+$/.test(e.trim()));
    if (mixed && usesIndexes && (s.env.CUDA_DEVICE_ORDER ?? '').toUpperCase() !== 'PCI_BUS_ID') {
      out.push(
        finding({
          check: this.id,
          severity: 'warn',
          status: 'warn',
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
