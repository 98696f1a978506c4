// A yes/no validator written as code from a zod schema, for `fleet`, which validates 10,000 snapshots: zod's parse
// builds a new copy of every object it accepts, which cost more than parsing the JSON, and loading zod and walking
// its schema cost each thread more than reading a hundred snapshots. scripts/lib/snapshot-validator.mjs writes, at
// build time, what validatorSource returns into ./validate.generated.ts: straight-line code, one function per object,
// array, record or union of the schema. It answers only "valid and not too deep, or not"; for the reason of a
// rejection (rare) zod itself is asked, so messages stay zod's. A property test keeps the two in agreement on
// mutated real snapshots (test/snapshot/fast-validate.test.ts). Only the constructs the snapshot schemas use are
// supported: any other throws when generating, so a schema change cannot slip past it silently.
//
// The depth bound (./depth.ts) is checked in the same walk: the schema's own nodes are proven, here, to sit above the
// bound (the schema is not recursive), so only what the schema does not describe is measured: an unknown value, and
// the keys an object does not name (zod strips them from its copy; fleet keeps the document as parsed).
import type { ZodType } from 'zod';

interface Def {
  type: string;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
  innerType?: ZodType;
  element?: ZodType;
  valueType?: ZodType;
  keyType?: ZodType;
  options?: ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
}

const defOf = (s: ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** A string as a single-quoted literal; only plain text (what the schemas name) is expected. */
function q(s: string): string {
  if (!/^[\w .:/+-]*$/.test(s)) throw new Error(`fast-validate: a name or value needing escapes: ${JSON.stringify(s)}`);
  return `'${s}'`;
}

function literal(v: unknown): string {
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  throw new Error(`fast-validate: unsupported literal ${String(v)}`);
}

const prop = (o: string, k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? `${o}.${k}` : `${o}[${q(k)}]`);

/**
 * The TypeScript source of a validator of `schema`: `export function NAME(v: unknown, d = 0): boolean`, true when v
 * passes the schema and nests no deeper than MAX_JSON_DEPTH (v at depth d), which with `deeper` it imports from
 * `depthModule`; `maxDepth` is that bound, which the schema's own nodes are proven to sit above. Pure; the header
 * lines become the file's first comment.
 */
export function validatorSource(
  schema: ZodType,
  opts: { name: string; header: string[]; depthModule: string; maxDepth: number },
): string {
  const names = new Map<ZodType, string>();
  const fns: string[] = [];
  const consts: string[] = [];
  let count = 0;

  /** The name of a Set of these values (literals), one per distinct list, written as the formatter would. */
  const sets = new Map<string, string>();
  const setOf = (values: string[]): string => {
    const key = values.join(',');
    const known = sets.get(key);
    if (known) return known;
    const name = `E${sets.size}`;
    sets.set(key, name);
    const line = `const ${name} = new Set<unknown>([${values.join(', ')}]);`;
    consts.push(
      line.length <= 120 ? line : `const ${name} = new Set<unknown>([\n${values.map((v) => `  ${v},\n`).join('')}]);`,
    );
    return name;
  };

  /** The name of the function that validates `s` (object, array, record, union), written on first use. */
  const fn = (s: ZodType): string => {
    const known = names.get(s);
    if (known) return known;
    const d = defOf(s);
    const name = `${d.type[0]}${count++}`;
    names.set(s, name);
    const text = body(s, name);
    // a function that passes no depth on (an array of strings) names its parameter as unused
    const [first, ...rest] = text.split('\n');
    fns.push(
      rest.some((l) => /\bd\b/.test(l)) ? text : [first!.replace('d: number', '_d: number'), ...rest].join('\n'),
    );
    return name;
  };

  /** An expression true when `x` (an identifier) at depth `d` fails `s`. */
  const fails = (s: ZodType, x: string, d: string): string => {
    const t = defOf(s);
    checksOf(t);
    switch (t.type) {
      case 'string':
        return `typeof ${x} !== 'string'`;
      case 'boolean':
        return `typeof ${x} !== 'boolean'`;
      case 'null':
        return `${x} !== null`;
      case 'unknown':
      case 'any':
        return `typeof ${x} === 'object' && ${x} !== null && deeper(${x}, ${d}, MAX)`;
      case 'number':
        return (t.checks ?? []).length > 0 ? `!Number.isSafeInteger(${x})` : `!Number.isFinite(${x})`;
      case 'literal':
        return (t.values ?? []).map((v) => `${x} !== ${literal(v)}`).join(' && ') || 'true';
      case 'enum': {
        const values = Object.values(t.entries ?? {}).map(literal);
        if (values.length <= 3) return values.map((v) => `${x} !== ${v}`).join(' && ') || 'true';
        return `!${setOf(values)}.has(${x})`;
      }
      // the inner failure is a conjunction (no `||` is ever written): no parentheses needed
      case 'optional':
        return `${x} !== undefined && ${fails(t.innerType!, x, d)}`;
      case 'nullable':
        return `${x} !== null && ${fails(t.innerType!, x, d)}`;
      case 'object':
      case 'array':
      case 'record':
      case 'union':
        return `!${fn(s)}(${x}, ${d})`;
      default:
        throw new Error(`fast-validate: unsupported zod type ${t.type}`);
    }
  };

  const body = (s: ZodType, name: string): string => {
    const t = defOf(s);
    const head = `function ${name}(v: unknown, d: number): boolean {`;
    switch (t.type) {
      case 'object': {
        const shape = Object.entries(t.shape ?? {});
        const rest = t.catchall ? defOf(t.catchall).type : 'unknown';
        // a typed catchall would validate the keys the shape does not name: not supported (no schema has one)
        if (rest !== 'unknown') throw new Error(`fast-validate: unsupported catchall ${rest}`);
        const lines = [head, "  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;"];
        lines.push('  const o = v as O;', '  let x: unknown;');
        for (const [k, ks] of shape)
          lines.push(`  x = ${prop('o', k)};`, `  if (${fails(ks, 'x', 'd + 1')}) return false;`);
        // the keys the shape does not name (stripped by zod, kept here): any JSON, within the bound
        lines.push('  for (const k in o) {');
        if (shape.length > 0) {
          lines.push('    switch (k) {');
          for (const [k] of shape) lines.push(`      case ${q(k)}:`);
          lines.push('        continue;', '    }');
        }
        lines.push(
          '    x = o[k];',
          "    if (typeof x === 'object' && x !== null && deeper(x, d + 1, MAX)) return false;",
        );
        lines.push('  }', '  return true;', '}');
        return lines.join('\n');
      }
      case 'array':
        return [
          head,
          '  if (!Array.isArray(v)) return false;',
          '  for (let i = 0; i < v.length; i++) {',
          '    const x: unknown = v[i];',
          `    if (${fails(t.element!, 'x', 'd + 1')}) return false;`,
          '  }',
          '  return true;',
          '}',
        ].join('\n');
      case 'record': {
        if (defOf(t.keyType!).type !== 'string') throw new Error('fast-validate: record keys other than strings');
        return [
          head,
          "  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;",
          '  const o = v as O;',
          '  for (const k in o) {',
          '    const x = o[k];',
          `    if (${fails(t.valueType!, 'x', 'd + 1')}) return false;`,
          '  }',
          '  return true;',
          '}',
        ].join('\n');
      }
      case 'union': {
        // valid when any option is: the options' failures, each a line, all of them meaning false
        const lines = [head, '  const x = v;'];
        for (const o of t.options ?? []) lines.push(`  if (${passes(fails(o, 'x', 'd'))}) return true;`);
        lines.push('  return false;', '}');
        return lines.join('\n');
      }
      default:
        throw new Error(`fast-validate: unsupported zod type ${t.type}`);
    }
  };

  const deepest = schemaDepth(schema, 0, new Set());
  if (deepest >= opts.maxDepth)
    throw new Error(`fast-validate: the schema nests ${deepest} levels, not below the bound ${opts.maxDepth}`);
  const root = fn(schema);
  return [
    ...opts.header.map((l) => `// ${l}`),
    `import { deeper, MAX_JSON_DEPTH as MAX } from '${opts.depthModule}';`,
    '',
    'type O = Record<string, unknown>;',
    '',
    ...consts.flatMap((c) => [c, '']),
    `/** The schema's verdict, and nothing in v nested deeper than MAX (v at depth d, the document's root at 0). */`,
    `export function ${opts.name}(v: unknown, d = 0): boolean {`,
    `  return ${root}(v, d);`,
    '}',
    '',
    ...fns.flatMap((f) => [f, '']),
  ].join('\n');
}

/** Only safe integers (z.number().int()) are known; any other check (a length, a pattern) is not. */
function checksOf(t: Def): void {
  for (const c of t.checks ?? []) {
    const cd = c._zod.def;
    if (!(t.type === 'number' && cd.check === 'number_format' && cd.format === 'safeint'))
      throw new Error(`fast-validate: unsupported check ${JSON.stringify(cd)} on ${t.type}`);
  }
}

/** The negation of a failure expression, written plainly where it is one term. */
function passes(fail: string): string {
  if (/ && /.test(fail)) return `!(${fail})`;
  if (/^![\w.]+\([^()]*\)$/.test(fail)) return fail.slice(1);
  const m = /^([^!=]+) !== ([^!=]+)$/.exec(fail);
  return m ? `${m[1]} === ${m[2]}` : `!(${fail})`;
}

/**
 * The depth of the deepest object or array the schema itself describes, `s` at depth `at`: what the validator does not
 * measure at run time. Throws on a recursive schema (its depth has no bound).
 */
function schemaDepth(s: ZodType, at: number, path: Set<ZodType>): number {
  if (path.has(s)) throw new Error('fast-validate: a recursive schema');
  const t = defOf(s);
  const inner = (c: ZodType | undefined, depth: number): number => {
    if (!c) return -1;
    path.add(s);
    const r = schemaDepth(c, depth, path);
    path.delete(s);
    return r;
  };
  switch (t.type) {
    case 'optional':
    case 'nullable':
      return inner(t.innerType, at);
    case 'union':
      return Math.max(-1, ...(t.options ?? []).map((o) => inner(o, at)));
    case 'array':
      return Math.max(at, inner(t.element, at + 1));
    case 'record':
      return Math.max(at, inner(t.valueType, at + 1));
    case 'object':
      return Math.max(at, ...Object.values(t.shape ?? {}).map((c) => inner(c, at + 1)));
    default:
      return -1;
  }
}
