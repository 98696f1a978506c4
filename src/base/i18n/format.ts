// The message format of the catalogs: a small subset of ICU MessageFormat, enough for whole sentences with
// named slots, so no sentence is glued together from pieces in code.
//   {name}                                   the parameter as text
//   {name, number}                           a number with the language's grouping (1,234 / 1,234)
//   {name, plural, one {# error} other {# errors}}   by the language's plural rules (Intl.PluralRules); # is the number
//   {name, select, a {…} b {…} other {…}}    by the parameter's value
// Pure: parsing is cached per message text.

import { nativeAtFirstUse } from '../native-regex.js';

export type Params = Readonly<Record<string, string | number | boolean | null | undefined>>;

type Node =
  | string
  | { name: string; kind: 'text' }
  | { name: string; kind: 'number' }
  | { name: string; kind: 'plural' | 'select'; branches: Record<string, Node[]> };

const cache = new Map<string, Node[]>();

export function parseMessage(text: string): Node[] {
  let hit = cache.get(text);
  if (!hit) {
    const [nodes, end] = parseNodes(text, 0, false);
    if (end !== text.length) throw new Error(`message: unbalanced "}" at ${end} in ${JSON.stringify(text)}`);
    hit = nodes;
    cache.set(text, hit);
  }
  return hit;
}

function parseNodes(s: string, i: number, inBranch: boolean, hashIsNumber = false): [Node[], number] {
  const out: Node[] = [];
  let lit = '';
  while (i < s.length) {
    const c = s[i]!;
    if (c === '}') {
      if (!inBranch) throw new Error(`message: unexpected "}" in ${JSON.stringify(s)}`);
      break;
    }
    if (c === '{') {
      if (lit) out.push(lit);
      lit = '';
      const [node, next] = parseArg(s, i + 1);
      out.push(node);
      i = next;
      continue;
    }
    if (c === '#' && hashIsNumber) {
      if (lit) out.push(lit);
      lit = '';
      out.push({ name: '#', kind: 'number' });
      i++;
      continue;
    }
    lit += c;
    i++;
  }
  if (lit) out.push(lit);
  return [out, i];
}

/** the end of a parameter's name or kind: `exec` from lastIndex, set before each use */
const ARG_END = /[,}]/g;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** both compiled to machine code at the first parameter parsed, not at load (src/base/native-regex.ts) */
const primeArg = nativeAtFirstUse(ARG_END, PARAM_NAME);

function parseArg(s: string, i: number): [Node, number] {
  primeArg();
  const close = ARG_END;
  close.lastIndex = i;
  const m = close.exec(s);
  if (!m) throw new Error(`message: unclosed "{" in ${JSON.stringify(s)}`);
  const name = s.slice(i, m.index).trim();
  if (!PARAM_NAME.test(name)) throw new Error(`message: bad parameter name "${name}" in ${JSON.stringify(s)}`);
  if (m[0] === '}') return [{ name, kind: 'text' }, m.index + 1];
  // {name, kind ...}
  let j = m.index + 1;
  const kindEnd = ARG_END;
  kindEnd.lastIndex = j;
  const k = kindEnd.exec(s);
  if (!k) throw new Error(`message: unclosed "{" in ${JSON.stringify(s)}`);
  const kind = s.slice(j, k.index).trim();
  if (kind === 'number' && k[0] === '}') return [{ name, kind: 'number' }, k.index + 1];
  if ((kind !== 'plural' && kind !== 'select') || k[0] !== ',')
    throw new Error(`message: unknown format "${kind}" in ${JSON.stringify(s)}`);
  j = k.index + 1;
  const branches: Record<string, Node[]> = {};
  for (;;) {
    while (s[j] === ' ') j++;
    if (s[j] === '}') return [{ name, kind, branches }, j + 1];
    const open = s.indexOf('{', j);
    if (open < 0) throw new Error(`message: unclosed branch in ${JSON.stringify(s)}`);
    const key = s.slice(j, open).trim();
    const [nodes, end] = parseNodes(s, open + 1, true, kind === 'plural');
    if (s[end] !== '}') throw new Error(`message: unclosed branch "${key}" in ${JSON.stringify(s)}`);
    branches[key] = nodes;
    j = end + 1;
  }
}

/** The parameter names a message uses (for the test that every language takes the same ones). */
export function paramNames(text: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (typeof n === 'string' || n.name === '#') continue;
      names.add(n.name);
      if (n.kind === 'plural' || n.kind === 'select') for (const b of Object.values(n.branches)) walk(b);
    }
  };
  walk(parseMessage(text));
  return [...names].sort();
}

/** The literal text of a message with every parameter taken out: the pieces a reader sees as they are. */
export function literalPieces(text: string): string[] {
  const out: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (typeof n === 'string') out.push(n);
      else if (n.kind === 'plural' || n.kind === 'select') for (const b of Object.values(n.branches)) walk(b);
    }
  };
  walk(parseMessage(text));
  return out;
}

const plurals = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

export function formatMessage(text: string, params: Params, locale: string): string {
  return render(parseMessage(text), params, locale, undefined);
}

function render(nodes: Node[], params: Params, locale: string, hash: number | undefined): string {
  let out = '';
  for (const n of nodes) {
    if (typeof n === 'string') {
      out += n;
      continue;
    }
    if (n.name === '#') {
      out += String(hash ?? '#');
      continue;
    }
    const v = params[n.name];
    if (v === undefined) throw new Error(`message: missing parameter "${n.name}"`);
    if (n.kind === 'text') out += String(v);
    else if (n.kind === 'number') out += typeof v === 'number' ? numberFormat(locale).format(v) : String(v);
    else if (n.kind === 'plural') {
      const num = Number(v);
      const exact = n.branches[`=${num}`];
      const cat = pluralRules(locale).select(num);
      const branch = exact ?? n.branches[cat] ?? n.branches.other;
      if (!branch) throw new Error(`message: no "other" branch for "${n.name}"`);
      out += render(branch, params, locale, num);
    } else {
      const branch = n.branches[String(v)] ?? n.branches.other;
      if (!branch) throw new Error(`message: no branch "${String(v)}" or "other" for "${n.name}"`);
      out += render(branch, params, locale, hash);
    }
  }
  return out;
}

function pluralRules(locale: string): Intl.PluralRules {
  let r = plurals.get(locale);
  if (!r) plurals.set(locale, (r = new Intl.PluralRules(locale)));
  return r;
}
function numberFormat(locale: string): Intl.NumberFormat {
  let r = numbers.get(locale);
  if (!r) numbers.set(locale, (r = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 20 })));
  return r;
}
