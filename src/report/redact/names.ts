// Names of options, variables and keys: which hold a secret, which a host ("--hf-token", "MASTER_ADDR",
// "db_password", "--wandb-key"). Pure: shared by the secret and host detectors and the model walk.

const SECRET_WORDS = new Set([
  'token',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'apikey',
  'auth',
  'authorization',
  'cookie',
]);
const SECRET_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'session key',
  'auth key',
  'signing key',
  'encryption key',
  'account key',
  'license key',
]);
/** a last part that says the value is about the secret, not the secret ("--token-file", "max_token_len") */
const NOT_THE_VALUE = new Set([
  'file',
  'files',
  'path',
  'dir',
  'env',
  'var',
  'type',
  'name',
  'names',
  'len',
  'length',
  'count',
  'url',
  'uri',
  'id',
  'ids',
  'limit',
  'size',
  'max',
  'min',
  'mode',
  'method',
  'provider',
  'scope',
  'ttl',
  'expiry',
  'expires',
  'header',
  'prompt',
]);
const HOST_LAST = new Set([
  'host',
  'hostname',
  'hosts',
  'hostnames',
  'nodename',
  'nodelist',
  'node',
  'nodes',
  'addr',
  'address',
  'master',
  'endpoint',
  'endpoints',
  'server',
  'servers',
  'coordinator',
  'peer',
  'peers',
  'head',
]);

/** options whose value is `user:password` (curl, wget) */
export const USER_PASS_FLAGS = new Set(['u', 'user', 'proxy-user', 'U']);

/**
 * What an option's value is: as nameKind, and also a key (`--key`, `--wandb-key`, `--ssh_key`) and `--pwd`,
 * which on a command line is a password. Not for JSON keys or variables: a record's `key` field and $PWD are
 * not secrets.
 */
export function flagKind(name: string): 'secret' | 'host' | null {
  const k = nameKind(name);
  if (k !== null) return k;
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
  const last = parts[parts.length - 1];
  if (parts[0] === 'no' || last === undefined) return null;
  return last === 'key' || last === 'keys' || last === 'pwd' ? 'secret' : null;
}

const nameKinds = new Map<string, 'secret' | 'host' | null>();
export function nameKind(name: string): 'secret' | 'host' | null {
  let k = nameKinds.get(name);
  if (k === undefined) {
    k = classifyName(name);
    if (nameKinds.size < 10_000) nameKinds.set(name, k);
  }
  return k;
}

function classifyName(name: string): 'secret' | 'host' | null {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
  if (parts.length === 0 || parts[0] === 'no') return null;
  const whole = parts.join('_');
  if (whole === 'pwd' || whole === 'oldpwd') return null; // the working directory
  const last = parts[parts.length - 1]!;
  const secret =
    parts.some((p) => SECRET_WORDS.has(p)) || parts.some((p, i) => i > 0 && SECRET_PAIRS.has(`${parts[i - 1]} ${p}`));
  if (secret) return NOT_THE_VALUE.has(last) ? null : 'secret';
  return HOST_LAST.has(last) ? 'host' : null;
}

/** What a key (or a fact id such as "env[HF_TOKEN]", "loads[torch libcudnn.so.9]") says its string value is. */
export function keyKind(key: string): 'secret' | 'host' | 'version' | null {
  if (key === '' || /^\d+$/.test(key)) return null;
  if (VERSION_KEY_RE.test(key)) return 'version';
  const inner = /^[\w.-]*\[([A-Za-z_][\w.-]*)\]$/.exec(key);
  return nameKind(inner ? inner[1]! : key);
}
/** keys and facts whose values are versions: a four-part version there is not an IPv4 address */
const VERSION_KEY_RE =
  /version|^(?:loads|copies|wheel|framework|driver|cuda|cudnn|kernel-module|tool|nvcc)(?:\[|\.|$)/i;
