// Detector: identifiers of the machine and its GPUs. GPU and MIG UUIDs (also the short prefixes
// CUDA_VISIBLE_DEVICES accepts, as the known UUID they start), other UUIDs, MAC addresses, labelled GPU and
// board serials, machine/product/boot ids. PCI bus ids are kept: the same slot on every server of a model.
import { macRule } from './addresses.js';
import { plain, rule, type Step } from './rule.js';
import type { Marks } from './types.js';
import { regexOf } from '../../base/regex.js';

export function idRules(m: Marks): Step[] {
  return [
    plain(
      rule(/(?:GPU|MIG)-/, GPU_UUID_RE, (x, kind: string, hex: string) => {
        const lower = `${kind}-${hex}`.toLowerCase();
        const full = m.gpuUuids.find((u) => u.startsWith(lower)) ?? lower;
        return m.ph(kind.toUpperCase() === 'MIG' ? 'mig-uuid' : 'gpu-uuid', full === lower ? x : full);
      }),
    ),
    plain(rule(/[0-9a-fA-F]{8}-/, BARE_UUID_RE, (x) => m.ph('uuid', x))),
    plain(macRule(m)),
    plain(
      rule(
        /serial/i,
        SERIAL_LABEL_RE,
        (_x, label: string, sep: string, v: string) => `${label}${sep}${m.ph('serial', v)}`,
      ),
    ),
    plain(
      rule(
        /(?:machine|product|system|boot)[ _-]?(?:id|uuid)/i,
        MACHINE_ID_LABEL_RE,
        (_x, label: string, sep: string, v: string) => `${label}${sep}${m.ph('machine-id', v)}`,
      ),
    ),
  ];
}

// No boundary after: a UUID glued to other text ("…3df7alice") is still a UUID. A prefix ("GPU-86cd2dae", as
// CUDA_VISIBLE_DEVICES accepts) is the UUID it starts, when that UUID is known.
const GPU_UUID_RE = regexOf(
  [
    // the kind
    String.raw`(GPU|MIG)-`,
    // a whole UUID
    String.raw`([0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|`,
    // or a prefix of one, ending where the hex does
    String.raw`[0-9a-fA-F]{4,}(?:-[0-9a-fA-F]{1,12})*(?![0-9a-zA-Z]))`,
  ],
  'g',
);
const BARE_UUID_RE =
  /(?<![0-9a-zA-Z])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9a-zA-Z])/g;
const SERIAL_LABEL_RE = regexOf(
  [
    // the label ("serial", "board serial number", "gpu_serial_no")
    String.raw`\b((?:(?:board|chassis|system|product|module|gpu)[ _-]?)?serial(?:[ _-]?(?:number|no\.?))?)`,
    // the separator, quotes allowed
    String.raw`(["']?\s*[:=]\s*["']?)`,
    // the value
    String.raw`([A-Za-z0-9][A-Za-z0-9-]{3,})`,
  ],
  'gi',
);
const MACHINE_ID_LABEL_RE =
  /\b(machine[ _-]?id|product[ _-]?uuid|system[ _-]?uuid|boot[ _-]?id)(["']?\s*[:=]\s*["']?)([0-9A-Fa-f-]{16,})/gi;
