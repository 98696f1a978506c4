// A yes/no validator compiled from a zod schema, for `fleet`, which validates 10,000 snapshots: zod's parse
// builds a new copy of every object it accepts, which cost more than parsing the JSON. This walks the same
// rules without copying. It answers only "valid or not"; for the reason of a rejection (rare) zod itself is
// asked, so messages stay zod's. A property test keeps the two in agreement on mutated real snapshots
// (test/snapshot/fast-validate.test.ts). Only the constructs the snapshot schemas use are supported: any other
// throws when compiling, so a schema change cannot slip past it silently.
import type { ZodType } from 'zod';

type Check = (v: unknown) => boolean;

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
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function compileValidator(schema: ZodType): Check {
  const memo = new Map<ZodType, Check>();
  const compile = (s: ZodType): Check => {
    const known = memo.get(s);
    if (known) return known;
    // placeholder for recursive schemas (none today): resolved on first call
    let built: Check | undefined;
    memo.set(s, (v) => built!(v));
    built = build(s);
    memo.set(s, built);
    return built;
  };
  const build = (s: ZodType): Check => {
    const d = defOf(s);
    for (const c of d.checks ?? []) {
      const cd = c._zod.def;
      if (!(d.type === 'number' && cd.check === 'number_format' && cd.format === 'safeint'))
        throw new Error(`fast-validate: unsupported check ${JSON.stringify(cd)} on ${d.type}`);
    }
    switch (d.type) {
      case 'string':
        return (v) => typeof v === 'string';
      case 'boolean':
        return (v) => typeof v === 'boolean';
      case 'null':
        return (v) => v === null;
      case 'unknown':
      case 'any':
        return () => true;
      case 'number':
        return (d.checks ?? []).length > 0
          ? (v) => typeof v === 'number' && Number.isSafeInteger(v)
          : (v) => typeof v === 'number' && Number.isFinite(v);
      case 'literal': {
        const values = d.values ?? [];
        return (v) => values.includes(v);
      }
      case 'enum': {
        const values = new Set(Object.values(d.entries ?? {}));
        return (v) => values.has(v);
      }
      case 'optional': {
        const inner = compile(d.innerType!);
        return (v) => v === undefined || inner(v);
      }
      case 'nullable': {
        const inner = compile(d.innerType!);
        return (v) => v === null || inner(v);
      }
      case 'array': {
        const el = compile(d.element!);
        return (v) => {
          if (!Array.isArray(v)) return false;
          for (const x of v) if (!el(x)) return false;
          return true;
        };
      }
      case 'record': {
        if (defOf(d.keyType!).type !== 'string') throw new Error('fast-validate: record keys other than strings');
        const val = compile(d.valueType!);
        return (v) => {
          if (!isObject(v)) return false;
          for (const k in v) if (!val(v[k])) return false;
          return true;
        };
      }
      case 'object': {
        const entries = Object.entries(d.shape ?? {}).map(([k, t]) => [k, compile(t)] as const);
        const rest = d.catchall && defOf(d.catchall).type !== 'unknown' ? compile(d.catchall) : null;
        return (v) => {
          if (!isObject(v)) return false;
          for (const [k, c] of entries) if (!c(v[k])) return false;
          if (rest) for (const k in v) if (!(d.shape ?? {})[k] && !rest(v[k])) return false;
          return true;
        };
      }
      case 'union': {
        const options = (d.options ?? []).map(compile);
        return (v) => options.some((o) => o(v));
      }
      default:
        throw new Error(`fast-validate: unsupported zod type ${d.type}`);
    }
  };
  return compile(schema);
}
