// Detector: host names found by context, other than this machine's and the fleet's (which the snapshots state
// and the word rule replaces): URL hosts not on the public list, user@host, NCCL's "host:pid:tid [" prefix,
// "[host]:port", Slurm's messages, "host: X"/"node=X", AWS's ip-10-0-0-1, and fully qualified names that look
// like machines. Hosts of documentation and package indexes (PUBLIC_URL_HOSTS) are kept.
import { isIp } from './addresses.js';
import { learning, rule, type Step } from './rule.js';
import type { Marks } from './types.js';
import { regexOf } from '../../base/regex.js';

export const PUBLIC_HOSTS = new Set([
  'localhost',
  'localhost.localdomain',
  'unknown',
  'ip6-localhost',
  'ip6-loopback',
  '',
]);

/**
 * Hosts of documentation, package indexes and code hosting that a URL in a log or a command line may name
 * (data: what the tools fetch from). A URL's host is kept only when it is one of these or below one; any other
 * host in a URL (a company's GitLab, a bucket, a database) is replaced.
 */
export const PUBLIC_URL_HOSTS: readonly string[] = [
  'pytorch.org',
  'nvidia.com',
  'nvidia.github.io',
  'nvcr.io',
  'github.com',
  'githubusercontent.com',
  'github.io',
  'gitlab.com',
  'bitbucket.org',
  'pypi.org',
  'pythonhosted.org',
  'python.org',
  'huggingface.co',
  'hf.co',
  'anaconda.org',
  'anaconda.com',
  'conda-forge.org',
  'continuum.io',
  'tensorflow.org',
  'jax.dev',
  'readthedocs.io',
  'readthedocs.org',
  'docker.com',
  'docker.io',
  'ubuntu.com',
  'debian.org',
  'kernel.org',
  'microsoft.com',
  'google.com',
  'googleapis.com',
  'wandb.ai',
  'openai.com',
  'anthropic.com',
  'stackoverflow.com',
  'rust-lang.org',
  'npmjs.org',
  'npmjs.com',
];

/** The rules that find other hosts by their context (before home folders and the word rule). */
export function hostRules(m: Marks): Step[] {
  return [
    learning(
      rule(/:\/\//, URL_HOST_RE, (x, scheme: string, host: string) =>
        isPublicUrlHost(host, m.isKnownHost) ? x : `${scheme}${m.hostMark(host.replace(/^\[|\]$/g, ''), host)}`,
      ),
    ),
    learning(
      rule(/@/, USER_AT_HOST_RE, (x, user: string, host: string) => {
        if (/^sha\d+$/i.test(host) || !/[A-Za-z]/.test(host)) return x;
        const hostShown = isPublicHost(host, m.isKnownHost) ? host : m.hostMark(host);
        return `${m.userMark(user)}@${hostShown}`;
      }),
    ),
    learning(rule(/:\d+:\d+ \[/, NCCL_PREFIX_RE, (_x, host: string, rest: string) => `${m.hostMark(host)}${rest}`)),
    learning(
      rule(/\]:\d/, BRACKET_HOST_RE, (x, host: string, port: string) =>
        PUBLIC_HOSTS.has(host.toLowerCase()) || isIp(host) ? x : `[${m.hostMark(host)}]:${port}`,
      ),
    ),
    learning(
      rule(
        /srun: error|CANCELLED/,
        SLURM_HOST_RE,
        (_x, head: string, host: string, tail: string) => `${head}${m.hostMark(host)}${tail}`,
      ),
    ),
    learning(
      rule(/host|node/i, HOST_LABEL_RE, (x, label: string, sep: string, host: string) =>
        /^v?\d/.test(host) ? x : `${label}${sep}${m.hostMark(host)}`,
      ),
    ),
    learning(rule(/ip-\d/, AWS_HOST_RE, (x) => m.hostMark(x))),
  ];
}

/** Fully qualified names that are not public documentation or package hosts (after the word rule). */
export function fqdnRule(m: Marks): Step {
  return learning(
    rule(/[A-Za-z0-9]\.[A-Za-z]/, FQDN_RE, (x) => (looksLikeMachine(x) && !m.isKnownHost(x) ? m.hostMark(x) : x)),
  );
}

const URL_HOST_RE = regexOf(
  [
    // the scheme, and a user already marked
    String.raw`\b([a-z][a-z0-9+.-]*:\/\/(?:\uE000[\uE010-\uE019]+\uE001@)?)`,
    // the host: an address in brackets or a name
    String.raw`(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)`,
  ],
  'gi',
);
const USER_AT_HOST_RE = regexOf(
  [
    // a login name, not the end of a word or an e-mail address
    String.raw`(?<![\w.+%-])([a-z_][a-z0-9_.-]{0,31})@`,
    // the host name, its labels
    String.raw`([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)`,
  ],
  'g',
);
/** NCCL and PyTorch prefix their log lines with host:pid:tid */
const NCCL_PREFIX_RE = /^([A-Za-z][\w-]*(?:\.[\w-]+)*)(:\d+:\d+ \[)/gm;
/** c10d: "[gpu-node-17]:29500" */
const BRACKET_HOST_RE = /\[([A-Za-z][\w.-]*[A-Za-z0-9])\]:(\d+)/g;
/** "srun: error: gpu-node-17: task 0: Exited", "*** JOB 12 ON gpu-node-17 CANCELLED" */
const SLURM_HOST_RE = /(\bsrun: error: |\bON )([A-Za-z][\w.-]*[A-Za-z0-9])(: task|\s+CANCELLED)/g;
const HOST_LABEL_RE = /\b(host ?name|host|node ?name|node)(\s*[:=]\s*)([A-Za-z][\w.-]*[A-Za-z0-9])(?![\w.-])/gi;
/** AWS's ip-10-0-0-1 host names carry the address */
const AWS_HOST_RE = /\bip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.[A-Za-z0-9.-]+)?\b/g;
const FQDN_RE = regexOf(
  [
    // not inside a word, an address or a path
    String.raw`(?<![\w.@/\\-])`,
    // a label, then one or more dotted labels
    String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+`,
    // not going on as a word or a file suffix
    String.raw`(?![\w-]|\.\w)`,
  ],
  'g',
);

/** Suffixes of private and cluster names: a name ending so is a machine. */
const PRIVATE_SUFFIXES = new Set([
  'local',
  'lan',
  'internal',
  'intranet',
  'corp',
  'home',
  'localdomain',
  'cluster',
  'private',
  'priv',
  'svc',
  'pod',
  'compute',
  'ec2',
  'arpa',
  'test',
  'example',
  'invalid',
  'localnet',
  'hpc',
]);
/**
 * Top-level domains of public names; such a name is a machine only when its first label has a digit (dgx01.acme.com).
 */
const PUBLIC_TLDS = new Set([
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'mil',
  'io',
  'ai',
  'co',
  'cloud',
  'info',
  'biz',
  'us',
  'uk',
  'de',
  'fr',
  'jp',
  'cn',
  'kr',
  'ca',
  'au',
  'eu',
  'ch',
  'nl',
  'se',
  'ru',
  'in',
  'tw',
  'sg',
  'il',
  'br',
  'it',
  'es',
  'pl',
  'fi',
  'no',
  'dk',
  'at',
  'be',
]);

function looksLikeMachine(name: string): boolean {
  const labels = name.toLowerCase().split('.');
  const tld = labels[labels.length - 1]!;
  if (/^\d+$/.test(tld)) return false; // versions, addresses
  if (PRIVATE_SUFFIXES.has(tld)) return true;
  return PUBLIC_TLDS.has(tld) && labels.length >= 3 && /\d/.test(labels[0]!) && /[a-z]/.test(labels[0]!);
}

/** Outside URLs (user@host): a dotted name is public unless it looks like a machine. */
function isPublicHost(host: string, known: (h: string) => boolean): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (known(h)) return false;
  if (isIp(h)) return false;
  if (PUBLIC_HOSTS.has(h.toLowerCase())) return true;
  if (!h.includes('.')) return false; // a bare name (gpu-node-17) is a machine
  return !looksLikeMachine(h);
}

/** In a URL: public only when on PUBLIC_URL_HOSTS (or below one), or localhost. */
function isPublicUrlHost(host: string, known: (h: string) => boolean): boolean {
  const h = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (known(h) || isIp(h)) return false;
  if (PUBLIC_HOSTS.has(h)) return true;
  return PUBLIC_URL_HOSTS.some((d) => h === d || h.endsWith(`.${d}`));
}
