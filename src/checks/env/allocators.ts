// env.allocators: the variables that set each framework's memory policy, checked for values the framework
// would reject or ignore, and summarised so a reader knows which policy a job here gets.
import { finding, type Finding } from '../../core/finding.js';
import { envFinding } from './env-finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

/** PyTorch's CachingAllocator options (c10/cuda/CUDAAllocatorConfig.cpp); an unknown key is a RuntimeError at the first allocation. */
export const TORCH_ALLOC_KEYS = new Set([
  'backend',
  'max_split_size_mb',
  'max_non_split_rounding_mb',
  'garbage_collection_threshold',
  'roundup_power2_divisions',
  'expandable_segments',
  'release_lock_on_cudamalloc',
  'pinned_use_cuda_host_register',
  'pinned_use_host_register',
  'pinned_num_register_threads',
  'pinned_use_background_threads',
  'pinned_reserve_segment_size_mb',
  'graph_capture_record_stream_reuse',
  'per_process_memory_fraction',
]);

export function parseTorchAllocConf(v: string): { options: Map<string, string>; unknown: string[]; malformed: string[] } {
  const options = new Map<string, string>();
  const unknown: string[] = [];
  const malformed: string[] = [];
  // roundup_power2_divisions may hold a bracketed list with commas: split on commas outside brackets.
  for (const part of v.split(/,(?![^[]*\])/)) {
    const p = part.trim();
    if (p === '') continue;
    const i = p.indexOf(':');
    if (i <= 0) {
      malformed.push(p);
      continue;
    }
    const key = p.slice(0, i).trim();
    options.set(key, p.slice(i + 1).trim());
    if (!TORCH_ALLOC_KEYS.has(key)) unknown.push(key);
  }
  return { options, unknown, malformed };
}

const BOOL = /^(true|false|1|0)$/i;

export const allocatorsCheck: Check = {
  id: 'env.allocators',
  category: 'env',
  title: 'Framework memory policy variables',
  evaluate(s: Snapshot): Finding[] {
    const e = s.env;
    const out: Finding[] = [];
    const bad = (name: string, message: string, fixText: string, commands: string[]) =>
      out.push(envFinding({ check: this.id, name, value: e[name] ?? '', message, fix: { text: fixText, commands } }));

    const tfGrowth = e.TF_FORCE_GPU_ALLOW_GROWTH;
    if (tfGrowth !== undefined && tfGrowth !== 'true' && tfGrowth !== 'false') {
      bad('TF_FORCE_GPU_ALLOW_GROWTH', `TF_FORCE_GPU_ALLOW_GROWTH="${tfGrowth}" is ignored: TensorFlow accepts only "true" or "false"`, 'TensorFlow then grabs nearly all GPU memory at start.', ['export TF_FORCE_GPU_ALLOW_GROWTH=true']);
    }
    const tfAlloc = e.TF_GPU_ALLOCATOR;
    if (tfAlloc !== undefined && tfAlloc !== 'cuda_malloc_async' && tfAlloc !== 'bfc' && tfAlloc !== '') {
      bad('TF_GPU_ALLOCATOR', `TF_GPU_ALLOCATOR="${tfAlloc}" is not an allocator TensorFlow knows (cuda_malloc_async)`, 'Unset it, or set cuda_malloc_async.', ['unset TF_GPU_ALLOCATOR']);
    }
    const prealloc = e.XLA_PYTHON_CLIENT_PREALLOCATE;
    if (prealloc !== undefined && !BOOL.test(prealloc)) {
      bad('XLA_PYTHON_CLIENT_PREALLOCATE', `XLA_PYTHON_CLIENT_PREALLOCATE="${prealloc}" is not a boolean JAX understands`, 'Use false to stop JAX reserving 75% of GPU memory at the first operation.', ['export XLA_PYTHON_CLIENT_PREALLOCATE=false']);
    }
    for (const name of ['XLA_PYTHON_CLIENT_MEM_FRACTION', 'XLA_CLIENT_MEM_FRACTION']) {
      const v = e[name];
      if (v === undefined) continue;
      const f = Number(v);
      if (!Number.isFinite(f) || f <= 0 || f > 1) {
        bad(name, `${name}="${v}" must be a fraction between 0 and 1`, 'JAX fails at start or ignores it.', [`export ${name}=.50`]);
      }
    }
    const xlaAlloc = e.XLA_PYTHON_CLIENT_ALLOCATOR;
    if (xlaAlloc !== undefined && !['platform', 'bfc', 'cuda_async', 'default'].includes(xlaAlloc)) {
      bad('XLA_PYTHON_CLIENT_ALLOCATOR', `XLA_PYTHON_CLIENT_ALLOCATOR="${xlaAlloc}" is not one of platform, bfc, cuda_async, default`, 'Unset it or use platform (allocate on demand, slow but frugal).', ['unset XLA_PYTHON_CLIENT_ALLOCATOR']);
    }
    for (const name of ['PYTORCH_CUDA_ALLOC_CONF', 'PYTORCH_ALLOC_CONF']) {
      const v = e[name];
      if (v === undefined) continue;
      const parsed = parseTorchAllocConf(v);
      if (parsed.unknown.length > 0 || parsed.malformed.length > 0) {
        const what = [...parsed.unknown.map((k) => `unknown option "${k}"`), ...parsed.malformed.map((m) => `"${m}" is not key:value`)].join(', ');
        bad(name, `${name} has ${what}: PyTorch raises "Unrecognized CachingAllocator option" at the first CUDA allocation`, 'Fix the spelling; options are key:value pairs separated by commas.', [`export ${name}=expandable_segments:True`]);
      }
    }
    if (e.PYTORCH_CUDA_ALLOC_CONF !== undefined && e.PYTORCH_ALLOC_CONF !== undefined && e.PYTORCH_CUDA_ALLOC_CONF !== e.PYTORCH_ALLOC_CONF) {
      bad('PYTORCH_ALLOC_CONF', 'Both PYTORCH_ALLOC_CONF and PYTORCH_CUDA_ALLOC_CONF are set, differently: recent PyTorch reads PYTORCH_ALLOC_CONF and ignores the other', 'Keep one of them.', ['unset PYTORCH_CUDA_ALLOC_CONF']);
    }

    const policy: string[] = [];
    if (tfGrowth === 'true') policy.push('TensorFlow grows memory on demand');
    if (prealloc !== undefined && /^(false|0)$/i.test(prealloc)) policy.push('JAX does not preallocate');
    const frac = e.XLA_PYTHON_CLIENT_MEM_FRACTION ?? e.XLA_CLIENT_MEM_FRACTION;
    if (frac !== undefined && Number(frac) > 0 && Number(frac) <= 1) policy.push(`JAX preallocates ${Math.round(Number(frac) * 100)}%`);
    const torchConf = e.PYTORCH_ALLOC_CONF ?? e.PYTORCH_CUDA_ALLOC_CONF;
    if (torchConf) policy.push(`PyTorch allocator: ${torchConf}`);
    if (policy.length > 0 && out.length === 0) {
      out.push(finding({ check: this.id, severity: 'info', status: 'ok', rootCause: null, message: policy.join('; '), evidence: [] }));
    }
    return out;
  },
};
