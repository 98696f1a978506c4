// Detector: network addresses. IPv4 (not four-part versions: "cuDNN 8.9.7.29"), IPv6, MAC. Loopback and
// unspecified addresses are kept: they name no machine.
import type { Marks } from './types.js';
import { rule, type Rule } from './rule.js';
import { regexOf } from '../../base/regex.js';

export function isIp(s: string): boolean {
  return (
    /^(?:\d{1,3}\.){3}\d{1,3}$/.test(s) || (s.includes(':') && /^[0-9a-fA-F:]+$/.test(s) && s.split(':').length >= 3)
  );
}

/** The placeholder mark of an address, or the address itself when it names no machine. */
export function ipMark(m: Marks, ip: string): string {
  if (ip.includes(':')) return ip === '::1' || ip === '::' ? ip : m.ph('ipv6', ip);
  if (ip.startsWith('127.') || ip === '0.0.0.0' || ip === '255.255.255.255') return ip;
  return m.ph('ip', ip);
}

/** MAC addresses (with the identifiers, before the hosts). */
export function macRule(m: Marks): Rule {
  return rule(/[0-9A-Fa-f]{2}[:-][0-9A-Fa-f]{2}[:-]/, MAC_RE, (x) => m.ph('mac', x));
}

/** IPv4 and IPv6: run last, and not on values stored under a version key. */
export function ipRules(m: Marks): Rule[] {
  return [
    rule(/\d\.\d+\.\d+\.\d/, IPV4_RE, (ip: string, offset: number, whole: string) =>
      isVersion(ip, offset, whole) ? ip : ipMark(m, ip),
    ),
    rule(/::|(?:[0-9a-fA-F]{1,4}:){4}/, IPV6_RE, (ip: string) => ipMark(m, ip)),
  ];
}

const MAC_RE = /(?<![\w:-])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}(?![\w:-])/g;
// Glued to letters is still an address (alice10.20.30.40); glued to digits or dots it is part of a longer number.
const IPV4_RE = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\d|\.\d)/g;
// "::" with at least one more group, or five or more colon groups (not times like 12:34:56, not PCI bus ids).
const IPV6_RE = regexOf(
  [
    // not glued to a word or another group
    String.raw`(?<![\w:])`,
    // five to eight full groups
    String.raw`(?:(?:[0-9a-fA-F]{1,4}:){4,7}[0-9a-fA-F]{1,4}|`,
    // or "::" with at least one group after it
    String.raw`(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{0,4}::(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{1,4})`,
    // not followed by a word or another group
    String.raw`(?![\w:])`,
  ],
  'g',
);

/**
 * A four-part version ("cuDNN 8.9.7.29", "nvidia_cublas-13.1.0.3.dist-info") looks like an IPv4 address. It is an
 * address right after an address context (://, @, eth0:, addr=, from, =); a version right after a version word,
 * or with one earlier in the same clause (not across ; , ( ) [ ] or a line), or before a package suffix.
 */
function isVersion(ip: string, offset: number, whole: string): boolean {
  const before = whole.slice(Math.max(0, offset - 48), offset);
  if (IP_BEFORE.test(before)) return false;
  const clause = before.slice(Math.max(...[';', ',', '(', ')', '[', ']', '\n'].map((c) => before.lastIndexOf(c))) + 1);
  return (
    VERSION_BEFORE.test(before) ||
    VERSION_NEAR.test(clause) ||
    VERSION_AFTER.test(whole.slice(offset + ip.length, offset + ip.length + 12))
  );
}
const IP_BEFORE = regexOf(
  [
    // a URL or user@ before it
    String.raw`(?::\/\/|@|`,
    // an interface name and a colon (eth0:, ib0:)
    String.raw`\b(?:eth|ens|enp|eno|ib|bond|wlan|br|docker|veth)\w*:|`,
    // an address word (addr=, from, via)
    String.raw`\b(?:addr|address|host|ip|inet|from|to|on|at|peer|server|via)[\s:=]+|`,
    // an assignment, not a comparison (==, >=)
    String.raw`(?<![=<>~!])=)$`,
  ],
  'i',
);
const VERSION_BEFORE =
  /(?:version|\bver\.?|\bv|==|>=|<=|~=|cudnn|cuda|nccl|cublas|tensorrt|driver|\.so\.|[\w-]+-cu\d+)[\s:=]*$|\w[-_]$/i;
const VERSION_NEAR = /version|\bver\b|cudnn|cublas|cuda|nccl|tensorrt|driver|\bbuilt\b|compiled|\.so\.|-cu\d+/i;
/** what follows a version in a file name: nvidia_cublas-13.1.0.3.dist-info, torch-2.1.0.1-cp311…whl */
const VERSION_AFTER = /^(?:\.dist-info|\.egg-info|\.whl|\.tar|\.zip|-py\d|-cp\d|\+)/;
