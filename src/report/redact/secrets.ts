// Detector: secrets, found by their context or their shape. Runs first: a secret may hold anything (a host, a
// user name, an address) and must be replaced whole. Context: private key blocks, https://user:pw@host,
// "Authorization: …", "Bearer …", options and variables whose name says secret (--token=…, --password x,
// --wandb-key HEX, --pwd x, API_KEY=…, "password": "…", password: …), curl -u user:password, and URL query
// parameters named *sig*, *signature*, *token*, *key*, *credential*. Shape: AWS, GitHub, GitLab, Hugging Face,
// OpenAI/Anthropic, Slack, Google keys and JSON Web Tokens.
import { flagKind, nameKind, USER_PASS_FLAGS } from './names.js';
import { learning, rule, type Step } from './rule.js';
import { OPEN } from './state.js';
import type { Marks } from './types.js';

export function secretRules(m: Marks): Step[] {
  /** `user:password` (curl -u): the user as a user, the password as a secret; no colon: a user alone */
  const userPass = (v: string): string => {
    const q = /^(["'])(.*)\1$/s.exec(v);
    const inner = q ? q[2]! : v;
    const at = inner.indexOf(':');
    const out =
      at === -1 ? m.userMark(inner) : `${m.userMark(inner.slice(0, at))}:${m.secretMark(inner.slice(at + 1))}`;
    return q ? `${q[1]}${out}${q[1]}` : out;
  };
  return [
    learning(rule(/PRIVATE KEY/, PRIVATE_KEY_RE, (x) => m.secretMark(x))),
    learning(
      rule(/:\/\/[^\s/]*@/, URL_USERINFO_RE, (_x, scheme: string, info: string) => `${scheme}${m.secretMark(info)}@`),
    ),
    learning(
      rule(
        /authorization/i,
        AUTH_HEADER_RE,
        (_x, head: string, scheme: string | undefined, v: string) => `${head}${scheme ?? ''}${m.secretMark(v)}`,
      ),
    ),
    learning(rule(/bearer/i, BEARER_RE, (_x, head: string, v: string) => `${head}${m.secretMark(v)}`)),
    learning(
      rule(/-[A-Za-z]/, FLAG_VALUE_RE, (x, dashes: string, name: string, sep: string, v: string) => {
        if (USER_PASS_FLAGS.has(name)) return v.includes(OPEN) ? x : `${dashes}${name}${sep}${userPass(v)}`;
        const out = m.valueOf(flagKind(name), v);
        return out === null ? x : `${dashes}${name}${sep}${out}`;
      }),
    ),
    learning(
      rule(/=/, ASSIGN_RE, (x, name: string, v: string) => {
        const out = m.valueOf(nameKind(name), v);
        return out === null ? x : `${name}=${out}`;
      }),
    ),
    learning(
      rule(/:\s*["']/, QUOTED_KV_RE, (x, q: string, name: string, sep: string, vq: string, v: string) => {
        const kind = nameKind(name);
        if (kind === null || v.includes(OPEN)) return x;
        return `${q}${name}${q}${sep}${vq}${kind === 'secret' ? m.secretMark(v) : m.hostValue(v)}${vq}`;
      }),
    ),
    learning(
      rule(/:[ \t]/, PLAIN_KV_RE, (x, name: string, sep: string, v: string) =>
        nameKind(name) === 'secret' && !v.includes(OPEN) && !AUTH_SCHEME_RE.test(v)
          ? `${name}${sep}${m.secretMark(v)}`
          : x,
      ),
    ),
    learning(
      rule(/[?&;][\w.-]+=/, QUERY_PARAM_RE, (x, head: string, name: string, v: string) =>
        SECRET_PARAM_RE.test(name) && !v.includes(OPEN) ? `${head}${name}=${m.secretMark(v)}` : x,
      ),
    ),
    learning(rule(TOKEN_GATE, TOKEN_SHAPES_RE, (x) => m.secretMark(x))),
  ];
}

const PRIVATE_KEY_RE = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const URL_USERINFO_RE = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:"'<>]+(?::[^\s/@"'<>]*)?)@/gi;
const AUTH_HEADER_RE =
  /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|token|digest|negotiate)\s+)?([^\s"',;]+)/gi;
const BEARER_RE = /\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
/** --name=value or --name value (not a further option); the value may be quoted */
const FLAG_VALUE_RE = /(?<![\w-])(--?)([A-Za-z][\w.-]*)(=|[ \t]+)(?!-)("[^"]*"|'[^']*'|[^\s"'][^\s]*)/g;
/** NAME=value as in a shell or an env dump */
const ASSIGN_RE = /(?<![\w$.-])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s"';&|]*)/g;
/** "password": "x", 'token': 'x' (JSON, Python dicts, YAML with quotes) */
const QUOTED_KV_RE = /(["']?)([A-Za-z_][\w.-]*)\1(\s*:\s*)(["'])((?:(?!\4)[^\n])*)\4/g;
const AUTH_SCHEME_RE = /^(?:bearer|basic|token|digest|negotiate)$/i;
/** password: x (YAML, logs) */
const PLAIN_KV_RE = /(?<![\w-])([A-Za-z_][\w-]*)(:[ \t]+)([^\s,;"']+)/g;
/** a URL's query parameter (also `;` as some signed URLs use) */
const QUERY_PARAM_RE = /([?&;])([\w.-]+)=([^&#;\s"'<>]*)/g;
/** query parameters that carry a signature, a token, a key or a credential (X-Amz-Signature, sig, sv, access_token…) */
const SECRET_PARAM_RE = /sig|signature|token|key|credential|secret|passw|auth/i;

/** Key shapes whose prefix says what they are. */
const TOKEN_SHAPES: { re: RegExp; source: string }[] = [
  {
    re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g,
    source: 'AWS IAM identifiers: docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html',
  },
  {
    re: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
    source: 'GitHub token formats: github.blog/2021-04-05-behind-githubs-new-authentication-token-formats',
  },
  { re: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g, source: 'GitHub fine-grained personal access tokens' },
  {
    re: /\bhf_[A-Za-z0-9]{16,}\b/g,
    source: 'Hugging Face user access tokens: huggingface.co/docs/hub/security-tokens',
  },
  { re: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g, source: 'OpenAI / Anthropic API keys' },
  { re: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, source: 'Slack tokens: api.slack.com/authentication/token-types' },
  { re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, source: 'GitLab personal access tokens' },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, source: 'Google API keys' },
  {
    re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
    source: 'JSON Web Tokens (RFC 7519): base64url of {"…',
  },
];
const TOKEN_SHAPES_RE = new RegExp(TOKEN_SHAPES.map((t) => t.re.source).join('|'), 'g');
const TOKEN_GATE = /AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|gh[pousr]_|github_pat_|hf_|sk-|xox|glpat-|AIza|eyJ/;
