// What each framework does with the memory-policy variables, value by value: the reading of their parsers,
// checked against what the lab GPU printed (torch 2.11, JAX 0.11.2; gpu-lab/truth-table.sh re-runs every case).
//
// PyTorch 2.9+ (c10/core/AllocatorConfig.h ConfigTokenizer): the value is split into tokens at , : [ ] (spaces
// dropped) and read twice.
//  1. When libc10_cuda.so loads (import torch), a walk over the key:value structure only: every key must be
//     followed by ":" and a value (or a [list]), pairs separated by ",". A break in that structure throws a
//     c10::Error inside a static initialiser: the process aborts (SIGABRT, exit 134) before any Python code
//     runs. Seen: "expandable_segment:True,garbage" → "INTERNAL ASSERT FAILED at .../AllocatorConfig.h:124 ...
//     Index out of bounds in ConfigTokenizer".
//  2. At the first CUDA call (torch._C._cuda_init), each key and value: an unknown key raises
//     ValueError "Unrecognized key 'foo' in CUDA allocator config." (seen: foo:1); a bad number raises the C++
//     conversion's name as RuntimeError: stoull (seen: max_split_size_mb:abc); a bad True/False raises
//     "Expected 'True' or 'False' ...". The job ends there with exit 1.
// PyTorch 2.1–2.8 (c10/cuda/CUDAAllocatorConfig.cpp) read the value only at the first CUDA call: every problem
// is a RuntimeError there ("Unrecognized CachingAllocator option: X", "Error parsing CachingAllocator::
// AllocatorConfig settings, expected :").
//
// JAX (jaxlib/xla_client.py generate_pjrt_gpu_plugin_options, read when the CUDA plugin initialises): a value
// float() cannot read, an unknown allocator, or both fraction variables set raise ValueError inside the
// plugin's initialize(); JAX prints "Jax plugin configuration error" and falls back to the CPU: the job runs,
// without the GPU, exit 0 (seen: XLA_PYTHON_CLIENT_MEM_FRACTION=abc). A fraction above 1 is accepted: the
// preallocation fails and steps down until it fits (seen: 1.5). Preallocation is off only for "false",
// "False" or "0"; any other value keeps it on (seen: "maybe" ran, preallocating).
//
// TensorFlow (tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc GetAllowGrowthValue): only "true" and
// "false" are read; anything else is logged ("...is set but could not be parsed") and ignored, so the
// config's allow_growth (off by default) holds: TensorFlow takes nearly all GPU memory at start. TensorFlow
// was not in the lab: expected from the source, covered here with fakes.
import type { Certainty, Consequence } from '../../finding.js';
import { compareVersions } from '../../../base/versions.js';
import { t } from '../../../base/i18n/index.js';

export const TORCH_SOURCE_NEW =
  'c10/core/AllocatorConfig.h ConfigTokenizer and c10/cuda/CUDAAllocatorConfig.cpp (PyTorch 2.9+)';
export const TORCH_SOURCE_OLD = 'c10/cuda/CUDAAllocatorConfig.cpp parseArgs (PyTorch 2.1–2.8)';
export const TORCH_SEEN =
  'NVIDIA H200, torch 2.11.0+cu130, a fresh `import torch; torch.zeros(1, device="cuda")` (issue 13 captures)';
export const JAX_SOURCE =
  'jaxlib/xla_client.py generate_pjrt_gpu_plugin_options (read when the CUDA plugin initialises)';
export const JAX_SEEN = 'NVIDIA H200, JAX 0.11.2, a fresh JAX convolution (issue 13 captures)';
export const TF_SOURCE = 'tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc GetAllowGrowthValue';

/** Keys of the accelerator-wide config (c10/core/AllocatorConfig.cpp) and their value grammar. */
const GENERIC_KEYS: Record<string, ValueKind> = {
  max_split_size_mb: {
    kind: 'size',
    min: 20,
    tooSmall: 'CachingAllocator option max_split_size_mb too small, must be >= 20',
  },
  max_non_split_rounding_mb: {
    kind: 'size',
    min: 20,
    tooSmall: 'CachingAllocator option max_non_split_rounding_mb too small, must be >= 20',
  },
  large_segment_size_mb: {
    kind: 'size',
    min: 1,
    tooSmall: 'CachingAllocator option large_segment_size_mb must be > 0',
  },
  garbage_collection_threshold: {
    kind: 'fraction',
    open: true,
    invalid: 'garbage_collect_threshold is invalid, set it in (0.0, 1.0)',
  },
  roundup_power2_divisions: { kind: 'divisions' },
  expandable_segments: { kind: 'bool' },
  pinned_use_background_threads: { kind: 'bool' },
};
/** Keys of the CUDA config (c10/cuda/CUDAAllocatorConfig.cpp); hip spellings are accepted too. */
const CUDA_KEYS: Record<string, ValueKind> = {
  backend: {
    kind: 'enum',
    values: ['native', 'cudaMallocAsync'],
    invalid: 'Unknown allocator backend, options are native and cudaMallocAsync',
  },
  release_lock_on_cudamalloc: { kind: 'bool' },
  release_lock_on_hipmalloc: { kind: 'bool' },
  pinned_use_cuda_host_register: { kind: 'bool' },
  pinned_use_hip_host_register: { kind: 'bool' },
  pinned_num_register_threads: { kind: 'size', min: 1, tooSmall: 'Number of register threads has to be power of 2' },
  pinned_reserve_segment_size_mb: {
    kind: 'size',
    min: 1,
    tooSmall: 'Pinned reserve segment size has to be greater than 0',
  },
  graph_capture_record_stream_reuse: { kind: 'bool' },
  per_process_memory_fraction: {
    kind: 'fraction',
    open: false,
    invalid: 'per_process_memory_fraction is invalid, set it in [0.0, 1.0]',
  },
};
export const TORCH_ALLOC_KEYS = new Set([...Object.keys(GENERIC_KEYS), ...Object.keys(CUDA_KEYS)]);

type ValueKind =
  | { kind: 'size'; min: number; tooSmall: string }
  | { kind: 'fraction'; open: boolean; invalid: string }
  | { kind: 'bool' }
  | { kind: 'enum'; values: string[]; invalid: string }
  | { kind: 'divisions' };

/** ConfigTokenizer: tokens at , : [ ] (each its own token), spaces dropped. */
export function tokenizeAllocConf(v: string): string[] {
  const out: string[] = [];
  let buf = '';
  for (const ch of v) {
    if (ch === ',' || ch === ':' || ch === '[' || ch === ']') {
      if (buf !== '') out.push(buf);
      buf = '';
      out.push(ch);
    } else if (ch !== ' ') buf += ch;
  }
  if (buf !== '') out.push(buf);
  return out;
}

export type TorchConfProblem =
  /** aborts the process while torch loads (2.9+) */
  | { phase: 'import'; error: string; token: string }
  /** raises at the first CUDA call */
  | { phase: 'first-cuda-call'; error: string; type: 'ValueError' | 'RuntimeError'; key: string };

const OUT_OF_BOUNDS =
  'i < config_.size() INTERNAL ASSERT FAILED at "/pytorch/c10/core/AllocatorConfig.h":124, please report a bug to ' +
  'PyTorch. Index out of bounds in ConfigTokenizer';

/** The structure walk done when libc10_cuda.so loads (ConfigTokenizer::skipKey per key, "," between pairs):
 *  null when it passes. `token` is the key or token where it breaks. */
export function torchLoadTimeProblem(tokens: readonly string[]): TorchConfProblem | null {
  const n = tokens.length;
  const expect = (j: number, what: string, key: string): TorchConfProblem | null => {
    if (j >= n) return { phase: 'import', error: OUT_OF_BOUNDS, token: key };
    if (tokens[j] !== what)
      return {
        phase: 'import',
        error: `Expected '${what}' at index ${j} in ConfigTokenizer but got '${tokens[j]}'`,
        token: key,
      };
    return null;
  };
  for (let i = 0; i < n; i++) {
    const key = tokens[i]!;
    const colon = expect(i + 1, ':', key);
    if (colon) return colon;
    let j = i + 2;
    if (j >= n) return { phase: 'import', error: OUT_OF_BOUNDS, token: key };
    if (tokens[j] === '[') {
      while (++j < n && tokens[j] !== ']') {
        /* the list's entries */
      }
      if (j >= n)
        return {
          phase: 'import',
          error: "Expected closing bracket ']' in ConfigTokenizer but reached end of config",
          token: key,
        };
    }
    i = j;
    if (i + 1 < n) {
      const comma = expect(++i, ',', tokens[i] ?? key);
      if (comma) return comma;
    }
  }
  return null;
}

/** The key-by-key reading at the first CUDA call: the first problem (the first exception ends the job). */
export function torchFirstCallProblem(tokens: readonly string[]): TorchConfProblem | null {
  for (let i = 0; i < tokens.length; i++) {
    const key = tokens[i]!;
    const kind = GENERIC_KEYS[key] ?? CUDA_KEYS[key];
    if (!kind)
      return {
        phase: 'first-cuda-call',
        type: 'ValueError',
        error: `Unrecognized key '${key}' in CUDA allocator config.`,
        key,
      };
    i += 2; // ':' checked by the load-time walk
    const value = tokens[i] ?? '';
    const bad = valueProblem(kind, value, i);
    if (bad) return { phase: 'first-cuda-call', key, ...bad };
    if (value === '[')
      while (++i < tokens.length && tokens[i] !== ']') {
        /* list entries: checked by torch in more detail; not modelled */
      }
    i++; // ','
  }
  return null;
}

function valueProblem(
  k: ValueKind,
  v: string,
  index: number,
): { type: 'ValueError' | 'RuntimeError'; error: string } | null {
  switch (k.kind) {
    case 'bool':
      return v === 'True' || v === 'False'
        ? null
        : {
            type: 'ValueError',
            error: `Expected 'True' or 'False' at index ${index} in ConfigTokenizer but got '${v}'`,
          };
    case 'enum':
      return k.values.includes(v) ? null : { type: 'RuntimeError', error: k.invalid };
    case 'size': {
      // std::stoull reads leading digits and throws std::invalid_argument("stoull") when there are none.
      const m = /^\+?(\d+)/.exec(v);
      if (!m) return { type: 'RuntimeError', error: 'stoull' };
      return Number(m[1]) < k.min ? { type: 'RuntimeError', error: k.tooSmall } : null;
    }
    case 'fraction': {
      const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(v);
      if (!m) return { type: 'RuntimeError', error: 'stod' };
      const f = Number(m[0]);
      const ok = k.open ? f > 0 && f < 1 : f >= 0 && f <= 1;
      return ok ? null : { type: 'RuntimeError', error: k.invalid };
    }
    case 'divisions': {
      if (v === '[') return null;
      const m = /^\+?(\d+)/.exec(v);
      if (!m) return { type: 'RuntimeError', error: 'stoull' };
      const n = Number(m[1]);
      return n === 0 || (n & (n - 1)) === 0
        ? null
        : { type: 'RuntimeError', error: 'For roundups, the divisions has to be power of 2 ' };
    }
  }
}

export interface TorchConfVerdict {
  problem: TorchConfProblem;
  /** the torch versions of the environments looked at decide which parser applies */
  parser: 'new' | 'old' | 'unknown';
  consequence: Consequence;
}

/** Which parser the torch versions here use: 2.9+ reads the structure at import. */
export function torchParserFor(versions: readonly string[]): 'new' | 'old' | 'unknown' {
  const known = versions.map((v) => /^(\d+\.\d+)/.exec(v)?.[1]).filter((v): v is string => v !== undefined);
  if (known.length === 0) return 'unknown';
  if (known.every((v) => compareVersions(v, '2.9') >= 0)) return 'new';
  if (known.every((v) => compareVersions(v, '2.9') < 0)) return 'old';
  return 'unknown';
}

/** What torch does with the value, or null when it takes it. `seenVersions`: torch versions the lab runs proved. */
export function judgeTorchAllocConf(
  name: string,
  value: string,
  torchVersions: readonly string[],
): TorchConfVerdict | null {
  const tokens = tokenizeAllocConf(value);
  // Only a walk that runs off the end (or an unclosed list) aborted at import in the lab; a token where the
  // walk expects ':' or ',' did not ("," first: torch imported and the first CUDA call raised "Unrecognized key
  // ','", truth table run 1). So a mismatch is judged by the first-call reading, which finds it there.
  const loaded = torchLoadTimeProblem(tokens);
  const load = loaded && !loaded.error.startsWith("Expected '") ? loaded : null;
  const problem = load ?? torchFirstCallProblem(tokens);
  if (!problem) return null;
  const parser = torchParserFor(torchVersions);
  const seen = torchVersions.some((v) => v.startsWith('2.11.'));
  if (problem.phase === 'import') {
    if (parser === 'old') {
      return {
        problem,
        parser,
        consequence: {
          framework: 'torch',
          outcome: 'fails',
          certainty: 'expected',
          text: t('alloc.torchOldImport'),
          source: TORCH_SOURCE_OLD,
        },
      };
    }
    // Seen for a bare token at the end (the index check); the other structure breaks go through the same walk.
    const certainty: Certainty = seen
      ? problem.error.includes('Index out of bounds')
        ? 'verified'
        : 'expected'
      : 'expected';
    return {
      problem,
      parser,
      consequence: {
        framework: 'torch',
        outcome: 'fails',
        certainty,
        text: t(parser === 'unknown' ? 'alloc.torchAbortUnknown' : 'alloc.torchAbort', { error: problem.error }),
        source:
          certainty === 'verified'
            ? `${TORCH_SEEN}: "expandable_segment:True,garbage"; ${TORCH_SOURCE_NEW}`
            : TORCH_SOURCE_NEW,
      },
    };
  }
  const verifiedKinds = problem.error.startsWith('Unrecognized key') || problem.error === 'stoull';
  const certainty: Certainty = seen && verifiedKinds ? 'verified' : 'expected';
  const text =
    parser === 'old'
      ? t('alloc.torchOldFirstCall', {
          quoted: problem.error.startsWith('Unrecognized key')
            ? `"Unrecognized CachingAllocator option: ${problem.key}"`
            : `"${problem.error}"`,
        })
      : t('alloc.torchFirstCall', { type: problem.type, error: problem.error });
  return {
    problem,
    parser,
    consequence: {
      framework: 'torch',
      outcome: 'fails',
      certainty,
      text,
      source:
        certainty === 'verified'
          ? `${TORCH_SEEN}: "foo:1", "max_split_size_mb:abc"; ${TORCH_SOURCE_NEW}`
          : parser === 'old'
            ? TORCH_SOURCE_OLD
            : TORCH_SOURCE_NEW,
    },
  };
}

// ---------------------------------------------------------------- JAX

export interface JaxSettingVerdict {
  /** the variable the verdict is about */
  name: string;
  severity: 'error' | 'warn';
  message: string;
  consequence: Consequence;
  fix: { text: string; commands: string[] };
}

const cpuFallback = () => t('alloc.cpuFallback');

/** Python's float(): what it accepts (a decimal or exponent number, inf, nan; spaces around). */
function pyFloat(v: string): number | null {
  const t = v.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return Number.NaN;
  return null;
}

export function judgeJaxSettings(env: Readonly<Record<string, string>>): JaxSettingVerdict[] {
  const out: JaxSettingVerdict[] = [];
  const frac = env.XLA_PYTHON_CLIENT_MEM_FRACTION;
  const newFrac = env.XLA_CLIENT_MEM_FRACTION;
  if (frac && newFrac) {
    out.push({
      name: 'XLA_PYTHON_CLIENT_MEM_FRACTION',
      severity: 'error',
      message: t('alloc.jaxBoth'),
      consequence: {
        framework: 'jax',
        outcome: 'fails',
        certainty: 'expected',
        text: t('alloc.jaxBothQ', { fallback: cpuFallback() }),
        source: JAX_SOURCE,
      },
      fix: { text: t('alloc.jaxBothFix'), commands: ['unset XLA_PYTHON_CLIENT_MEM_FRACTION'] },
    });
  }
  for (const name of ['XLA_PYTHON_CLIENT_MEM_FRACTION', 'XLA_CLIENT_MEM_FRACTION']) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    const f = pyFloat(v);
    if (f === null) {
      out.push({
        name,
        severity: 'error',
        message: t('alloc.jaxNaN', { name, value: v }),
        consequence: {
          framework: 'jax',
          outcome: 'fails',
          certainty: name === 'XLA_PYTHON_CLIENT_MEM_FRACTION' ? 'verified' : 'expected',
          text: t('alloc.jaxNaNQ', { value: v, fallback: cpuFallback() }),
          source: name === 'XLA_PYTHON_CLIENT_MEM_FRACTION' ? `${JAX_SEEN}: "abc"; ${JAX_SOURCE}` : JAX_SOURCE,
        },
        fix: { text: t('alloc.jaxNaNFix'), commands: [`export ${name}=.50`] },
      });
    } else if (!(f > 0 && f <= 1)) {
      const over = f > 1;
      out.push({
        name,
        severity: 'warn',
        message: over ? t('alloc.jaxOver', { name, value: v }) : t('alloc.jaxNotFraction', { name, value: v }),
        consequence: over
          ? {
              framework: 'jax',
              outcome: 'runs',
              certainty: 'verified',
              text: t('alloc.jaxOverQ'),
              source: `${JAX_SEEN}: 1.5; ${JAX_SOURCE}`,
            }
          : {
              framework: 'jax',
              outcome: 'unknown',
              certainty: 'possible',
              text: t('alloc.jaxZeroQ'),
              source: JAX_SOURCE,
            },
        fix: { text: t('alloc.jaxFractionFix'), commands: [`export ${name}=.50`] },
      });
    }
  }
  const pre = env.XLA_PYTHON_CLIENT_PREALLOCATE;
  if (pre !== undefined && pre !== '' && !['false', 'False', '0', 'true', 'True', '1'].includes(pre)) {
    out.push({
      name: 'XLA_PYTHON_CLIENT_PREALLOCATE',
      severity: 'warn',
      message: t('alloc.jaxPrealloc', { value: pre }),
      consequence: {
        framework: 'jax',
        outcome: 'runs',
        certainty: /^(no|off|maybe)$/i.test(pre) || pre === 'maybe' ? 'verified' : 'expected',
        text: t('alloc.jaxPreallocQ'),
        source: pre === 'maybe' ? `${JAX_SEEN}: "maybe" ran with preallocation; ${JAX_SOURCE}` : JAX_SOURCE,
      },
      fix: { text: t('alloc.jaxPreallocFix'), commands: ['export XLA_PYTHON_CLIENT_PREALLOCATE=false'] },
    });
  }
  const alloc = env.XLA_PYTHON_CLIENT_ALLOCATOR;
  if (alloc !== undefined && !['default', 'platform', 'bfc', 'cuda_async'].includes(alloc.toLowerCase())) {
    out.push({
      name: 'XLA_PYTHON_CLIENT_ALLOCATOR',
      severity: 'error',
      message: t('alloc.jaxAllocator', { value: alloc }),
      consequence: {
        framework: 'jax',
        outcome: 'fails',
        certainty: 'expected',
        text: t('alloc.jaxAllocatorQ', { fallback: cpuFallback() }),
        source: JAX_SOURCE,
      },
      fix: { text: t('alloc.jaxAllocatorFix'), commands: ['unset XLA_PYTHON_CLIENT_ALLOCATOR'] },
    });
  }
  return out;
}

// ---------------------------------------------------------------- TensorFlow

export function judgeTfGrowth(value: string | undefined): { message: string; consequence: Consequence } | null {
  if (value === undefined || value === 'true' || value === 'false') return null;
  return {
    message: t('alloc.tfGrowth', { value }),
    consequence: {
      framework: 'tensorflow',
      outcome: 'runs',
      certainty: 'expected',
      text: t('alloc.tfGrowthQ', { value }),
      source: TF_SOURCE,
    },
  };
}
