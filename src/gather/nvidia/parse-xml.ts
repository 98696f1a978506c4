// Parses `nvidia-smi -q -x`. Pure. Values stay strings until we know they are plain numbers
// (parseTagValue:false), because "12.10" as a number would become 12.1.
import { XMLParser } from 'fast-xml-parser';
import type { Gpu, MigDevice } from '../snapshot/schema.js';

export interface ParsedSmiXml {
  driverVersion: string;
  cudaVersion: string | null;
  gpus: Omit<Gpu, 'computeCapability'>[];
}

type Node = Record<string, unknown>;

/** the elements read as lists even when there is one */
const ALWAYS_LISTS = new Set(['gpu', 'process_info', 'mig_device']);

/** made on first use: nvidia-smi's own answers are read by quickParse */
let parser: XMLParser | undefined;
const newParser = () =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    isArray: (name) => ALWAYS_LISTS.has(name),
  });

/** The general XML parser's reading (what quickParse must equal where it reads a document). */
export function generalParse(xml: string): Node {
  parser ??= newParser();
  return parser.parse(xml) as Node;
}

/** nvidia-smi's XML names its root element in its first lines (after the XML declaration and DOCTYPE). */
const HEAD_BYTES = 4096;

/** Throws an Error with a one-line message when the text is not nvidia-smi's XML. */
export function parseSmiXml(xml: string): ParsedSmiXml {
  // Junk is refused before the XML parser sees it: 32 MiB of it cost 1.2 GB and seconds there.
  if (!/<nvidia_smi_log[\s>]/.test(xml.slice(0, HEAD_BYTES))) {
    throw new Error(
      `no <nvidia_smi_log> element in its first ${HEAD_BYTES} bytes (it begins: ${JSON.stringify(xml.slice(0, 60))})`,
    );
  }
  const cut = withoutUnread(xml);
  let doc = quickParse(cut);
  if (doc === undefined) {
    try {
      doc = generalParse(cut);
    } catch (err) {
      throw new Error(`not valid XML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!('nvidia_smi_log' in doc)) throw new Error('no <nvidia_smi_log> element');
  const log = obj(doc.nvidia_smi_log);
  const driverVersion = text(log.driver_version);
  if (!driverVersion) throw new Error('no <driver_version> element');
  const gpus = (Array.isArray(log.gpu) ? (log.gpu as Node[]) : []).map((g, i) => parseGpu(g, i));
  return { driverVersion, cudaVersion: text(log.cuda_version), gpus };
}

/**
 * Elements nothing below reads, by name (at any depth), cut before the XML parser sees them: the parse is on
 * `check`'s path once nvidia-smi answers, and <supported_clocks> alone is half of a GPU's text (220 clocks).
 * Cutting a whole element that is never read leaves every value read the same. Only complete ones are cut:
 * an element opened and never closed (a cut-off output) is left to the parser, as before.
 */
export const UNREAD = [
  'supported_clocks',
  'clocks_event_reasons_counters',
  'temperature',
  'fabric',
  'gpu_power_readings',
  'module_power_readings',
  'clocks',
  'applications_clocks',
  'default_applications_clocks',
  'max_clocks',
  'max_customer_boost_clocks',
  'utilization',
  'encoder_stats',
  'fbc_stats',
];

export function withoutUnread(xml: string): string {
  let out = xml;
  for (const name of UNREAD) {
    const open = `<${name}>`;
    const close = `</${name}>`;
    let at = out.indexOf(open);
    if (at < 0) continue;
    const kept: string[] = [];
    let from = 0;
    while (at >= 0) {
      const end = out.indexOf(close, at + open.length);
      if (end < 0) break;
      kept.push(out.slice(from, at));
      from = end + close.length;
      at = out.indexOf(open, from);
    }
    kept.push(out.slice(from));
    out = kept.join('');
  }
  return out;
}

/** An element's start or end tag (attributes in quotes, no entity in them), a declaration, or a DOCTYPE without an
 *  internal subset: the forms nvidia-smi writes. */
const TAG =
  /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<&]*")*)\s*(\/?)>|<\?xml[^<>]*\?>|<!DOCTYPE[^<>[\]]*>/y;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)="([^"]*)"/g;
const ENTITY = /&(lt|gt|amp|quot|apos);/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** names that are not plain keys of an object */
const NOT_A_KEY = /^(?:__proto__|constructor|prototype)$/;

interface Open {
  name: string;
  node: Node;
  text: string;
  children: boolean;
  /** the start tag's attributes, as written */
  attributes: string;
}

/**
 * nvidia-smi's XML read without the general parser, where it has the plain form nvidia-smi writes: nested elements
 * with text, the five named entities, one attribute form, a declaration and a DOCTYPE. It gives what the general
 * parser (the options above) gives for such a document, in a fraction of its time: the parse runs once nvidia-smi
 * has answered, on check's path. Anything else (a comment, CDATA, another entity, text beside elements, text with
 * attributes, a cut-off or unbalanced document, a root other than <nvidia_smi_log>) gives undefined: the general
 * parser reads it then, its errors included. test/probes/nvidia-xml-quick.test.ts holds the two equal.
 */
export function quickParse(xml: string): Node | undefined {
  const doc: Node = {};
  const stack: Open[] = [];
  let rooted = false;
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const between = xml.slice(at, lt < 0 ? xml.length : lt);
    if (between.trim() !== '') {
      const top = stack[stack.length - 1];
      if (top === undefined) return undefined;
      top.text += between;
    }
    if (lt < 0) break;
    TAG.lastIndex = lt;
    const m = TAG.exec(xml);
    if (m === null) return undefined;
    at = TAG.lastIndex;
    const [, closing, name, attributes, selfClosing] = m;
    if (name === undefined) {
      // the declaration and the DOCTYPE come before the root only
      if (rooted) return undefined;
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (open === undefined || open.name !== name || attributes || selfClosing) return undefined;
      if (!closeInto(stack[stack.length - 1]?.node ?? doc, open)) return undefined;
      continue;
    }
    if (NOT_A_KEY.test(name) || (stack.length === 0 && (rooted || name !== 'nvidia_smi_log'))) return undefined;
    rooted = true;
    const parent = stack[stack.length - 1];
    if (parent) parent.children = true;
    const open: Open = { name, node: {}, text: '', children: false, attributes: attributes ?? '' };
    if (selfClosing) {
      if (!closeInto(parent?.node ?? doc, open)) return undefined;
    } else stack.push(open);
  }
  return stack.length === 0 && rooted ? doc : undefined;
}

/** The closed element's value added to its parent, as the general parser adds it; false where this reader stops. */
function closeInto(parent: Node, open: Open): boolean {
  const raw = open.text.trim();
  // text beside elements or attributes, and attributes alone: forms nvidia-smi does not write
  if (open.attributes ? raw !== '' || !open.children : raw !== '' && open.children) return false;
  let value: unknown = open.node;
  // the attributes after the children, where the general parser puts them
  for (const [, k, v] of open.attributes.matchAll(ATTRIBUTE)) open.node[`@${k}`] = v;
  if (!open.children && !open.attributes) {
    if (raw.includes('&') && raw.replace(ENTITY, '').includes('&')) return false;
    value = raw.includes('&') ? raw.replace(ENTITY, (_, e: string) => ENTITIES[e]!) : raw;
  }
  const known = parent[open.name];
  if (ALWAYS_LISTS.has(open.name)) {
    if (known === undefined) parent[open.name] = [value];
    else (known as unknown[]).push(value);
  } else if (known === undefined) parent[open.name] = value;
  else if (Array.isArray(known)) known.push(value);
  else parent[open.name] = [known, value];
  return true;
}

function parseGpu(g: Node, position: number): Omit<Gpu, 'computeCapability'> {
  const mem = obj(g.fb_memory_usage);
  const ecc = obj(g.ecc_errors);
  const retired = obj(g.retired_pages);
  const remap = obj(g.remapped_rows);
  return {
    // nvidia-smi's index is the PCI-bus order, which is the order of <gpu> elements; minor_number can differ.
    index: position,
    name: text(g.product_name) ?? 'unknown GPU',
    uuid: text(g.uuid) ?? '',
    busId: text(obj(g.pci).pci_bus_id) ?? text(g['@id']) ?? '',
    serial: text(g.serial),
    architecture: text(g.product_architecture),
    memory: {
      totalMiB: mib(mem.total) ?? 0,
      usedMiB: mib(mem.used) ?? 0,
      freeMiB: mib(mem.free) ?? 0,
      reservedMiB: mib(mem.reserved),
    },
    persistenceMode: text(g.persistence_mode),
    computeMode: text(g.compute_mode),
    migMode: text(obj(g.mig_mode).current_mig),
    ecc: {
      mode: text(obj(g.ecc_mode).current_ecc),
      volatileUncorrected: uncorrected(obj(ecc.volatile)),
      aggregateUncorrected: uncorrected(obj(ecc.aggregate)),
      volatileCorrected: corrected(obj(ecc.volatile)),
    },
    retiredPages: {
      pendingRetirement: text(retired.pending_retirement),
      doubleBit: num(text(obj(retired.double_bit_retirement).retired_count)),
      singleBit: num(text(obj(retired.multiple_single_bit_retirement).retired_count)),
    },
    remappedRows: {
      pending: text(remap.remapped_row_pending),
      failure: text(remap.remapped_row_failure),
      uncorrectable: num(text(remap.remapped_row_unc)),
    },
    processes: (Array.isArray(obj(g.processes).process_info) ? (obj(g.processes).process_info as Node[]) : [])
      .map((p) => ({
        pid: num(text(p.pid)) ?? -1,
        name: text(p.process_name) ?? '',
        usedMiB: mib(p.used_memory),
        ...(text(p.type) ? { type: text(p.type)! } : {}),
      }))
      .filter((p) => p.pid >= 0),
    pcie: pcieLink(obj(obj(g.pci).pci_gpu_link_info)),
    clockEventReasons: clockReasons(g),
    minorNumber: num(text(g.minor_number)),
    ...migDevicesOf(g),
  };
}

/** <mig_devices>: one <mig_device> per compute instance, with its own memory; "None" (or absent) when MIG is off. */
function migDevicesOf(g: Node): { migDevices?: MigDevice[] } {
  const list = obj(g.mig_devices).mig_device;
  if (!Array.isArray(list)) return {};
  return {
    migDevices: (list as Node[]).map((d, i) => {
      const mem = obj(d.fb_memory_usage);
      return {
        index: num(text(d.index)) ?? i,
        gpuInstanceId: num(text(d.gpu_instance_id)),
        computeInstanceId: num(text(d.compute_instance_id)),
        profile: null,
        uuid: null,
        memory: { totalMiB: mib(mem.total), usedMiB: mib(mem.used), freeMiB: mib(mem.free) },
      };
    }),
  };
}

/** "5" / "16x" → numbers; the whole object is null when nvidia-smi gives no link facts at all (a VM, an old driver). */
function pcieLink(link: Node): NonNullable<Gpu['pcie']> | null {
  const gen = obj(link.pcie_gen);
  const widths = obj(link.link_widths);
  const n = (v: unknown) => num(text(v)?.replace(/x$/i, '') ?? null);
  const out = {
    genCurrent: n(gen.current_link_gen),
    genMax: n(gen.max_link_gen),
    widthCurrent: n(widths.current_link_width),
    widthMax: n(widths.max_link_width),
  };
  return Object.values(out).every((v) => v === null) ? null : out;
}

/** The Active reasons of <clocks_event_reasons> (drivers before 535: <clocks_throttle_reasons>), without the prefix. */
function clockReasons(g: Node): string[] | null {
  const block =
    g.clocks_event_reasons !== undefined
      ? obj(g.clocks_event_reasons)
      : g.clocks_throttle_reasons !== undefined
        ? obj(g.clocks_throttle_reasons)
        : null;
  if (block === null) return null;
  return Object.entries(block)
    .filter(([, v]) => text(v) === 'Active')
    .map(([k]) => k.replace(/^clocks_(?:event|throttle)_reason_/, ''));
}

/** ECC counters: new drivers split SRAM/DRAM, old ones have single_bit/double_bit with a total. */
function uncorrected(v: Node): number | null {
  const keys = ['dram_uncorrectable', 'sram_uncorrectable', 'sram_uncorrectable_parity', 'sram_uncorrectable_secded'];
  const newStyle = sumOf(keys.map((k) => num(text(v[k]))));
  if (newStyle !== null) return newStyle;
  return num(text(obj(v.double_bit).total));
}

function corrected(v: Node): number | null {
  const newStyle = sumOf([num(text(v.dram_correctable)), num(text(v.sram_correctable))]);
  if (newStyle !== null) return newStyle;
  return num(text(obj(v.single_bit).total));
}

function sumOf(xs: (number | null)[]): number | null {
  const present = xs.filter((x): x is number => x !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}

function obj(v: unknown): Node {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {};
}

/** A text value, or null for missing, empty and nvidia-smi's "N/A" / "[N/A]" / "Not Supported" placeholders. */
export function text(v: unknown): string | null {
  if (typeof v === 'string' || typeof v === 'number') {
    const s = String(v).trim();
    if (s === '' || /^\[?N\/A\]?$/i.test(s) || /^\[?Not Supported\]?$/i.test(s) || /^\[?Unknown Error\]?$/i.test(s))
      return null;
    return s;
  }
  if (v && typeof v === 'object' && '#text' in (v as Node)) return text((v as Node)['#text']);
  return null;
}

function num(s: string | null): number | null {
  if (s === null || !/^-?\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

/** "143771 MiB" → 143771; also GiB/KiB, for other tools' output. */
export function mib(v: unknown): number | null {
  const s = text(v);
  if (s === null) return null;
  const m = /^(\d+(?:\.\d+)?)\s*(KiB|MiB|GiB|B)?$/i.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  switch ((m[2] ?? 'MiB').toLowerCase()) {
    case 'gib':
      return n * 1024;
    case 'kib':
      return n / 1024;
    case 'b':
      return n / (1024 * 1024);
    default:
      return n;
  }
}

/**
 * A small document of the same shape as a real answer (one GPU, one process, an element that is cut): parsed once
 * while nvidia-smi works, so that the parser's code is compiled before the real answer comes (its first parse
 * costs about twice its second, and that parse is on `check`'s path).
 */
const WARM_UP_XML = `<?xml version="1.0" ?>
<nvidia_smi_log>
\t<driver_version>1.0</driver_version>
\t<cuda_version>1.0</cuda_version>
\t<gpu id="00000000:00:00.0">
\t\t<product_name>warm-up</product_name>
\t\t<uuid>GPU-0</uuid>
\t\t<pci><pci_bus_id>00000000:00:00.0</pci_bus_id>
\t\t\t<pci_gpu_link_info><pcie_gen><max_link_gen>5</max_link_gen><current_link_gen>5</current_link_gen></pcie_gen>
\t\t\t<link_widths><max_link_width>16x</max_link_width><current_link_width>16x</current_link_width></link_widths>
\t\t\t</pci_gpu_link_info></pci>
\t\t<fb_memory_usage><total>2 MiB</total><reserved>0 MiB</reserved><used>1 MiB</used><free>1 MiB</free>
\t\t</fb_memory_usage>
\t\t<ecc_mode><current_ecc>Enabled</current_ecc></ecc_mode>
\t\t<ecc_errors><volatile><sram_uncorrectable>0</sram_uncorrectable><dram_uncorrectable>0</dram_uncorrectable>
\t\t</volatile></ecc_errors>
\t\t<supported_clocks><supported_mem_clock><value>1 MHz</value></supported_mem_clock></supported_clocks>
\t\t<processes><process_info><pid>1</pid><type>C</type><process_name>a &amp; b</process_name>
\t\t\t<used_memory>1 MiB</used_memory></process_info></processes>
\t</gpu>
</nvidia_smi_log>
`;

/** Parses WARM_UP_XML (see there); what it parsed, for the test that it took the whole path. */
export function warmUpParser(): ParsedSmiXml | null {
  try {
    return parseSmiXml(WARM_UP_XML);
  } catch {
    return null;
  }
}
