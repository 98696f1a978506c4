// A strict parser of the Prometheus text exposition format 0.0.4 (what node_exporter's textfile collector
// reads), written from the format's specification for the tests: it throws on anything the collector would
// reject or that the spec leaves undefined (unknown escapes, TYPE after samples, interleaved families,
// duplicate series, a missing final newline) instead of guessing.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestamp?: number;
}

export interface MetricFamily {
  name: string;
  help?: string;
  type?: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export class ExpositionError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/** The family a sample belongs to: histogram/summary samples carry suffixes. */
function familyOf(name: string, families: Map<string, MetricFamily>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      const f = families.get(base);
      if (f && (f.type === 'histogram' || f.type === 'summary')) return base;
    }
  }
  return name;
}

function parseValue(s: string, line: number): number {
  if (s === 'NaN') return Number.NaN;
  if (s === '+Inf' || s === 'Inf') return Number.POSITIVE_INFINITY;
  if (s === '-Inf') return Number.NEGATIVE_INFINITY;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new ExpositionError(line, `invalid value "${s}"`);
  return Number(s);
}

function unescape(s: string, allowQuote: boolean, line: number): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[++i];
    if (n === '\\') out += '\\';
    else if (n === 'n') out += '\n';
    else if (n === '"' && allowQuote) out += '"';
    else throw new ExpositionError(line, `invalid escape "\\${n ?? ''}"`);
  }
  return out;
}

export function parseExposition(text: string): Map<string, MetricFamily> {
  if (text.length > 0 && !text.endsWith('\n'))
    throw new ExpositionError(text.split('\n').length, 'the last line must end with a newline');
  const families = new Map<string, MetricFamily>();
  const closed = new Set<string>(); // families whose samples ended: more samples later = interleaving
  const series = new Set<string>();
  let current: string | null = null;
  const lines = text.split('\n');
  lines.pop(); // after the final newline
  lines.forEach((raw, idx) => {
    const ln = idx + 1;
    if (raw.includes('\r')) throw new ExpositionError(ln, 'carriage return');
    const line = raw.replace(/^[ \t]+/, '');
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) return; // a comment
      const [, kind, name, rest] = m;
      if (!METRIC_NAME.test(name!) || METRIC_NAME.exec(name!)![0] !== name)
        throw new ExpositionError(ln, `invalid metric name "${name}"`);
      const f = families.get(name!) ?? { name: name!, samples: [] };
      families.set(name!, f);
      if (kind === 'HELP') {
        if (f.help !== undefined) throw new ExpositionError(ln, `second HELP for ${name}`);
        f.help = unescape(rest ?? '', false, ln);
      } else {
        if (f.type !== undefined) throw new ExpositionError(ln, `second TYPE for ${name}`);
        if (f.samples.length > 0) throw new ExpositionError(ln, `TYPE for ${name} after its samples`);
        const t = (rest ?? '').trim();
        if (!TYPES.has(t)) throw new ExpositionError(ln, `unknown type "${t}"`);
        f.type = t as MetricFamily['type'];
      }
      return;
    }
    const nm = METRIC_NAME.exec(line);
    if (!nm) throw new ExpositionError(ln, `invalid metric name in "${line}"`);
    const name = nm[0];
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      rest = rest.slice(1);
      for (;;) {
        rest = rest.replace(/^[ \t]+/, '');
        if (rest.startsWith('}')) {
          rest = rest.slice(1);
          break;
        }
        const lm = LABEL_NAME.exec(rest);
        if (!lm) throw new ExpositionError(ln, `invalid label name at "${rest.slice(0, 20)}"`);
        const lname = lm[0];
        if (lname.startsWith('__')) throw new ExpositionError(ln, `reserved label name ${lname}`);
        rest = rest.slice(lname.length).replace(/^[ \t]+/, '');
        if (!rest.startsWith('="')) throw new ExpositionError(ln, `expected =" after ${lname}`);
        rest = rest.slice(2);
        let end = 0;
        while (end < rest.length && rest[end] !== '"') end += rest[end] === '\\' ? 2 : 1;
        if (end >= rest.length) throw new ExpositionError(ln, `unterminated value of ${lname}`);
        if (lname in labels) throw new ExpositionError(ln, `label ${lname} twice`);
        labels[lname] = unescape(rest.slice(0, end), true, ln);
        rest = rest.slice(end + 1).replace(/^[ \t]+/, '');
        if (rest.startsWith(',')) rest = rest.slice(1);
        else if (!rest.startsWith('}')) throw new ExpositionError(ln, `expected , or } after the value of ${lname}`);
      }
    }
    const parts = rest.trim().split(/[ \t]+/);
    if (!/^[ \t]/.test(rest) || parts.length < 1 || parts.length > 2 || parts[0] === '')
      throw new ExpositionError(ln, `expected " value [timestamp]" in "${line}"`);
    const value = parseValue(parts[0]!, ln);
    const timestamp =
      parts[1] === undefined
        ? undefined
        : /^-?\d+$/.test(parts[1])
          ? Number(parts[1])
          : (() => {
              throw new ExpositionError(ln, `invalid timestamp "${parts[1]}"`);
            })();
    const fname = familyOf(name, families);
    if (current !== fname) {
      if (current !== null) closed.add(current);
      if (closed.has(fname)) throw new ExpositionError(ln, `samples of ${fname} are not together`);
      current = fname;
    }
    const key = `${name}{${Object.keys(labels)
      .sort()
      .map((k) => `${k}=${JSON.stringify(labels[k])}`)
      .join(',')}}`;
    if (series.has(key)) throw new ExpositionError(ln, `duplicate series ${key}`);
    series.add(key);
    const f = families.get(fname) ?? { name: fname, samples: [] };
    families.set(fname, f);
    f.samples.push({ name, labels, value, ...(timestamp === undefined ? {} : { timestamp }) });
  });
  return families;
}
