// Reading the numbers in out-of-memory messages: who holds the memory, whether the request could ever fit,
// whether the framework's own cache is fragmented. General facts used:
// - PyTorch (2.1+) names every *other* process on the GPU ("Process 637 has 138.62 GiB memory in use") and this
//   process's own total ("this process has X memory in use"); the legacy message gives what PyTorch reserved,
//   so total − reserved − free is memory this PyTorch does not account for (other processes, or this
//   process's CUDA context and libraries: a few hundred MiB up to a few GiB).
// - Reserved-but-unallocated memory at least as large as the failed request means the cache had the room,
//   only in pieces: fragmentation.
// - A request larger than the whole GPU can never fit.
// - XLA's preallocation asks for a fixed fraction of the GPU and retries with smaller sizes: a run of
//   "Failed to allocate device memory" with shrinking sizes is the preallocation failing.
import type { SignalState } from '../collect.js';
import { Collector } from '../collect.js';
import type { EnvironmentFacts, Framework, LogEvidence } from '../types.js';
import type { Board } from './board.js';
import { fmtBytes, GiB, MiB, parseSize } from './sizes.js';
import { t } from '../../../base/i18n/index.js';
import { regexOf } from '../../../base/regex.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../../../base/native-regex.js';

/**
 * What a process holds on the GPU before its framework allocates anything: the CUDA context plus the cuDNN/cuBLAS
 * handles and their workspaces. Measured: PyTorch 2.11 (CUDA 13) on a Hopper GPU, "this process has 518.00 MiB memory
 * in use" with 0 bytes allocated by PyTorch (test/fixtures/h200/logs/torch-oom-huge.txt); 894 MiB with 233 MiB
 * allocated and 41 MiB cached after cuDNN/cuBLAS were used (docs/evidence/h200-run-fail.txt). Memory outside the
 * framework's pool up to this margin is the process's own runtime, not another process or framework.
 */
export const CUDA_CONTEXT_BYTES = 518 * MiB;
export const CONTEXT_AND_HANDLES_BYTES = 1 * GiB;
/**
 * Memory held elsewhere is the cause only when it is well beyond a context (several processes' contexts, ~0.5 GiB each,
 * are not)
 */
const HELD_ELSEWHERE_MIN = 2 * GiB;
/**
 * Fragmentation decides only a cache worth a share of the GPU: defragmenting (expandable segments, max_split_size_mb)
 * recovers at most the cached memory, and a cache under this share of the GPU leaves the job's own tensors filling it
 * (the next allocation fails the same way).
 */
const FRAGMENT_SHARE = 0.05;
/** "This process holds nearly all of the GPU": what is left for anything else is below a context and its handles */
const NEARLY_ALL = (total: number) => total - CONTEXT_AND_HANDLES_BYTES - 0.05 * total;

const SZ = String.raw`[\d.,]+ ?(?:bytes|[KMGTP]i?B|B)`;
/** PyTorch 1.x's out-of-memory wording: the figures in parentheses after the request */
const LEGACY_FORM = /Tried to allocate \S+ ?\S*B \(GPU \d+; \S+ ?\S*B total capacity/;
const PROC = new RegExp(String.raw`Process (\d+) has (${SZ}) memory in use`, 'g');
const SELF = new RegExp(String.raw`this process has (${SZ}) memory in use`);
const ALLOCATED = new RegExp(String.raw`Of the allocated memory (${SZ}) is allocated by PyTorch`);
const UNALLOCATED = new RegExp(String.raw`(${SZ}) is reserved by PyTorch but unallocated`);
// compiled natively where they are first executed
const legacyForm = nativeWhenAsked(LEGACY_FORM);
const primeSelf = nativeAtFirstUse(SELF);
const primeFigures = nativeAtFirstUse(PROC, UNALLOCATED, ALLOCATED);

export function analyseMemory(
  board: Board,
  signals: Map<string, SignalState>,
  ev: (st: SignalState, max?: number) => LogEvidence[],
  env: EnvironmentFacts,
  fw: Framework | undefined,
): void {
  // a message in the 1.x wording ("(GPU 0; X total capacity; …)") pasted only in part can be read by the current
  // wording's pattern, whose first value then runs to the line's end: the wording is told by its text
  const curSt = signals.get('torch.oom.current');
  const curIsLegacy = curSt ? legacyForm().test(Collector.matches(curSt).at(-1)!.text) : false;
  const current = curIsLegacy ? undefined : curSt;
  if (current) torchCurrent(board, current, ev(current, 2));
  const legacy = signals.get('torch.oom.legacy') ?? (curIsLegacy ? curSt : undefined);
  if (legacy) torchLegacy(board, legacy, ev(legacy, 2));

  const xla = signals.get('xla.failed_to_allocate');
  if (xla) {
    const sizes = Collector.matches(xla)
      .map((m) => Number(m.values.bytes ?? NaN))
      .filter(Number.isFinite);
    const shrinking = sizes.length >= 2 && sizes[1]! < sizes[0]!;
    if (shrinking) {
      board.add(
        'framework_preallocation',
        1.2,
        t('why.xlaShrinking', { size: fmtBytes(sizes[0]!), n: sizes.length }),
        ev(xla, 2),
      );
      board.add('memory_held_by_other_process', 0.6, t('why.xlaFraction'), ev(xla, 1));
      // the request that then failed fits in the pool first asked for: the job is not too large for the GPU; the
      // memory was taken before this process allocated anything (another process, or another framework's pool)
      const requested = xlaRequest(signals);
      if (requested !== undefined && requested <= sizes[0]!) {
        board.stated(
          'memory_held_by_other_process',
          1.6,
          t('why.xlaTakenBefore', { requested: fmtBytes(requested), size: fmtBytes(sizes[0]!) }),
          ev(xla, 1),
        );
        board.against('gpu_memory_exhausted', 1.0, t('why.jobSmall'));
      }
    }
  }

  const cupy = signals.get('cupy.out_of_memory');
  if (cupy) {
    const m = Collector.matches(cupy).at(-1)!;
    const soFar = parseSize(m.values.soFar);
    if (soFar === 0) {
      board.add(
        'memory_held_by_other_process',
        0.9,
        t('why.cupyNothing', { bytes: m.values.bytes ?? '?' }),
        ev(cupy, 1),
      );
    }
  }

  // A raw CUDA out-of-memory error (not PyTorch's allocator message) happens outside the caching allocator:
  // creating the context or a cuBLAS/cuDNN handle. That needs little memory, so it fails when the GPU is
  // already full before the job allocated anything of its own.
  const raw = signals.get('cuda.error.out_of_memory');
  const torchOom = current ?? legacy ?? signals.get('torch.oom.generic');
  // (PyTorch 0.4-1.0 reported its caching allocator's own failure as "THCudaCheck FAIL file=…THCCachingAllocator.cpp
  // … error=2 : out of memory": that one is the allocator)
  const fromAllocator = raw ? Collector.matches(raw).some((m) => /CachingAllocator/.test(m.text)) : false;
  if (raw && fw === 'pytorch' && !torchOom && !fromAllocator) {
    board.add('memory_held_by_other_process', 0.9, t('why.rawOom'), ev(raw, 2));
  }
  // XLA creates each device's stream executor (its CUDA context) before any buffer (xla/service/platform_util.cc:
  // "Failed to create stream executor for device CUDA:N"): out of memory there is the GPU full before the job
  // allocated anything; "no supported devices found" that follows is its consequence, not a device hidden
  const contextFailed = raw ? Collector.matches(raw).some((m) => XLA_EXECUTOR.test(m.text)) : false;
  if (raw && contextFailed) board.stated('memory_held_by_other_process', 0.9, t('why.xlaContextOom'), ev(raw, 2));

  requestSizes(board, signals, ev, env);
  if (fw === 'tensorflow' || fw === 'keras') tfPoolLeaves(board, signals, env);
  poolRegion(board, signals, ev);
  if (raw) darknetLayers(board, raw, ev);

  // TensorFlow prints each GPU's free memory when it starts: little free before the job allocates anything
  // means another process holds it.
  for (const g of env.gpus) {
    if (g.totalMiB !== undefined && g.freeMiB !== undefined && g.totalMiB > 0 && g.freeMiB < g.totalMiB * 0.5) {
      const pct = Math.round((1 - g.freeMiB / g.totalMiB) * 100);
      board.add(
        'memory_held_by_other_process',
        2.0,
        t('why.freeAtStart', {
          free: fmtBytes(g.freeMiB * 1024 * 1024),
          total: fmtBytes(g.totalMiB * 1024 * 1024),
          pct,
        }),
        [{ line: g.line, text: g.text }],
      );
    }
  }
}

const XLA_EXECUTOR = /Failed to create stream executor for device/i;
/** XLA's failed request after its pool was made: the BFC allocator's "ran out of memory trying to allocate X" or
 *  JAX's "Out of memory while trying to allocate X" (bytes) */
export const XLA_REQUEST_GROUPS = ['tf.bfc.ran_out', 'xla-oom-allocator-adapter'];
export function xlaRequest(signals: Map<string, SignalState>): number | undefined {
  for (const g of XLA_REQUEST_GROUPS) {
    const st = signals.get(g);
    if (!st) continue;
    const text = Collector.matches(st).at(-1)!.text;
    const n = parseSize(/trying to allocate ([\d.,]+ ?(?:bytes|[KMGT]i?B|B))/i.exec(text)?.[1]);
    if (n !== undefined) return n;
  }
  return undefined;
}

function torchCurrent(board: Board, st: SignalState, evidence: LogEvidence[]): void {
  const m = Collector.matches(st).at(-1)!;
  const requested = parseSize(m.values.requested);
  const total = parseSize(m.values.total);
  const free = parseSize(m.values.free);
  if (requested === undefined || total === undefined) return;
  primeFigures();
  primeSelf();
  const others: Array<{ pid: string; bytes: number }> = [];
  for (const p of m.text.matchAll(PROC)) {
    const b = parseSize(p[2]);
    if (b !== undefined) others.push({ pid: p[1]!, bytes: b });
  }
  // the evidence text is cut at 400 characters; the figures after it may be missing
  const self = parseSize(SELF.exec(m.text)?.[1]);
  const unalloc = parseSize(UNALLOCATED.exec(m.text)?.[1]);
  const allocated = parseSize(ALLOCATED.exec(m.text)?.[1]);
  const othersSum = others.reduce((a, p) => a + p.bytes, 0);
  // outcomes, each decided by the message's own figures (the hint line "If reserved but unallocated memory is
  // large…" is printed with every OOM of PyTorch 2.x and proves nothing)
  // 1. the job itself: a request larger than the whole GPU can never fit
  if (requested > total) {
    board.stated(
      'gpu_memory_exhausted',
      2.2,
      t('why.tooLargeNever', { requested: fmtBytes(requested), total: fmtBytes(total) }),
      evidence,
    );
    board.against('memory_held_by_other_process', 1.0, t('why.noRoomForLarger'));
    return;
  }
  // 2. another framework in this process: it holds far more than PyTorch's pool plus a context and its handles
  // (JAX/XLA or TensorFlow preallocating in the same Python process: PyTorch counts it as "non-PyTorch memory")
  const pool = allocated !== undefined && unalloc !== undefined ? allocated + unalloc : undefined;
  const foreign = self !== undefined && pool !== undefined ? self - pool : undefined;
  if (foreign !== undefined && foreign >= HELD_ELSEWHERE_MIN && foreign >= Math.max(requested, 0.5 * self!)) {
    board.stated(
      'framework_preallocation',
      3.0,
      t('why.otherFrameworkInProcess', { self: fmtBytes(self!), pool: fmtBytes(pool!), foreign: fmtBytes(foreign) }),
      evidence,
    );
    board.hint('framework_preallocation', 'inProcess', 'yes');
    board.against('gpu_memory_exhausted', 1.0, t('why.jobSmall'));
    return;
  }
  // 3. another process: listed by PID, or (when PIDs are not visible, as in a container) the GPU's used memory
  // beyond this process, well over a context
  const elsewhere = self !== undefined && free !== undefined ? Math.max(0, total - free - self) : undefined;
  // the GPU still had the request free: what others hold did not stop it; this process's own ceiling did
  // (set_per_process_memory_fraction, printed as "X allowed;") or its cache (below)
  const roomOnGpu = free !== undefined && free >= requested + CONTEXT_AND_HANDLES_BYTES;
  if (roomOnGpu) {
    board.against(
      'memory_held_by_other_process',
      1.2,
      t('why.freeEnough', { free: fmtBytes(free!), requested: fmtBytes(requested) }),
    );
  } else if (othersSum > 0) {
    const list = others
      .map((p) => t('why.processHolds', { pid: p.pid, size: fmtBytes(p.bytes) }))
      .join(t('list.comma'));
    for (const p of others) board.hint('memory_held_by_other_process', 'pid', p.pid);
    const big =
      othersSum >= HELD_ELSEWHERE_MIN &&
      (othersSum >= total * 0.2 || (self !== undefined && othersSum > self && othersSum >= requested));
    if (big) {
      board.stated(
        'memory_held_by_other_process',
        2.5,
        self !== undefined
          ? t('why.othersOfGpuSelf', { list, total: fmtBytes(total), self: fmtBytes(self) })
          : t('why.othersOfGpu', { list, total: fmtBytes(total) }),
        evidence,
      );
      if (self !== undefined && self + requested < total * 0.9) {
        board.add(
          'memory_held_by_other_process',
          0.5,
          t('why.wouldHaveFit', { self: fmtBytes(self), requested: fmtBytes(requested) }),
        );
        board.against('gpu_memory_exhausted', 0.6, t('why.jobSmall'));
      }
    } else if (others.every((p) => p.bytes <= CONTEXT_AND_HANDLES_BYTES)) {
      // 5. a CUDA context's few hundred MiB are not what filled the GPU
      board.against('memory_held_by_other_process', 0.6, t('why.contextsOnly', { list }));
      if (self !== undefined)
        board.stated(
          'gpu_memory_exhausted',
          1.0,
          t('why.selfHoldsOf', { self: fmtBytes(self), total: fmtBytes(total) }),
          evidence,
        );
    } else {
      board.add('memory_held_by_other_process', 0.6, t('why.smallShare', { list }), evidence);
    }
  } else if (elsewhere !== undefined && elsewhere >= HELD_ELSEWHERE_MIN && elsewhere >= 0.2 * total) {
    board.stated(
      'memory_held_by_other_process',
      2.0,
      t('why.usedElsewhere', { elsewhere: fmtBytes(elsewhere), total: fmtBytes(total), self: fmtBytes(self!) }),
      evidence,
    );
    board.against('gpu_memory_exhausted', 0.5, t('why.jobSmall'));
  } else {
    // 4. the job itself: nobody else holds a share worth naming; this process has (nearly) all of it
    const nearly = self !== undefined && self >= NEARLY_ALL(total);
    board.stated(
      'gpu_memory_exhausted',
      nearly ? 1.6 : 1.0,
      self !== undefined ? t('why.selfHoldsOf', { self: fmtBytes(self), total: fmtBytes(total) }) : t('why.selfHolds'),
      evidence,
    );
    board.against('memory_held_by_other_process', nearly ? 1.0 : 0.3, t('why.noOtherListed'));
  }
  // 6. fragmentation: PyTorch's cache already holds the request's size, unallocated, only in pieces
  if (unalloc !== undefined) {
    if (unalloc >= requested && unalloc >= 64 * MiB && unalloc >= FRAGMENT_SHARE * total) {
      board.stated(
        'allocator_fragmentation',
        2.5,
        t('why.fragmented', { unalloc: fmtBytes(unalloc), requested: fmtBytes(requested) }),
        evidence,
      );
    } else if (unalloc >= requested * 0.5 && unalloc >= GiB) {
      board.add('allocator_fragmentation', 1.0, t('why.fragmentedHalf', { unalloc: fmtBytes(unalloc) }), evidence);
    } else if (allocated !== undefined) {
      board.against('allocator_fragmentation', 0.6, t('why.littleUnalloc', { unalloc: fmtBytes(unalloc) }));
    }
  }
}

function torchLegacy(board: Board, st: SignalState, evidence: LogEvidence[]): void {
  const m = Collector.matches(st).at(-1)!;
  // the figures by their labels in the text, where the pattern's captures stop short (a paste cut after "free")
  const fig = (re: RegExp) => parseSize(re.exec(m.text)?.[1]);
  const requested = fig(/Tried to allocate (\S+ ?\S*B)\b/) ?? parseSize(m.values.requested);
  const total = parseSize(m.values.total) ?? fig(/(\S+ ?\S*B) total capacity/);
  const freeRead = parseSize(m.values.free) ?? fig(/(\S+ ?(?:\S*B|bytes)) free\b/);
  const free = freeRead ?? 0;
  const allocated = parseSize(m.values.allocated) ?? fig(/(\S+ ?\S*B) already allocated/);
  const reserved =
    parseSize(m.values.reserved ?? m.values.cached) ?? fig(/(\S+ ?\S*B) (?:reserved in total by PyTorch|cached)\b/);
  if (requested === undefined || total === undefined) return;
  if (requested > total) {
    board.stated(
      'gpu_memory_exhausted',
      2.2,
      t('why.tooLarge', { requested: fmtBytes(requested), total: fmtBytes(total) }),
      evidence,
    );
    return;
  }
  if (reserved !== undefined) {
    // a context and its handles are outside PyTorch's pool in every process: not memory held elsewhere
    const unaccounted = Math.max(0, total - reserved - free - CUDA_CONTEXT_BYTES);
    const share = unaccounted / total;
    if (share >= 0.75) {
      board.stated(
        'memory_held_by_other_process',
        2.2,
        t('why.legacyOthers', {
          reserved: fmtBytes(reserved),
          free: fmtBytes(free),
          unaccounted: fmtBytes(unaccounted),
          pct: Math.round(share * 100),
        }),
        evidence,
      );
      board.against('gpu_memory_exhausted', 0.5, t('why.legacySmall'));
    } else if (share >= 0.4) {
      board.add(
        'memory_held_by_other_process',
        1.0,
        t('why.legacyNotReserved', { unaccounted: fmtBytes(unaccounted), pct: Math.round(share * 100) }),
        evidence,
      );
    } else {
      board.add(
        'gpu_memory_exhausted',
        0.8,
        t('why.legacyMost', { reserved: fmtBytes(reserved), total: fmtBytes(total) }),
        evidence,
      );
    }
    if (allocated !== undefined) {
      const cached = reserved - allocated;
      if (cached >= requested && cached >= 64 * 1024 * 1024 && cached >= FRAGMENT_SHARE * total) {
        board.stated(
          'allocator_fragmentation',
          2.3,
          t('why.legacyCache', {
            reserved: fmtBytes(reserved),
            allocated: fmtBytes(allocated),
            cached: fmtBytes(cached),
            requested: fmtBytes(requested),
          }),
          evidence,
        );
      } else if (cached >= requested * 0.5 && cached >= GiB) {
        // less than the request: the cache alone could not have served it, so this only adds a little
        board.add(
          'allocator_fragmentation',
          0.4,
          t('why.legacyCacheLess', { cached: fmtBytes(cached), requested: fmtBytes(requested) }),
          evidence,
        );
      }
    }
  } else if (allocated !== undefined && freeRead !== undefined) {
    // no reserved/cached figure: what this PyTorch's tensors hold plus what is free bounds the rest from above
    // (its cache, other processes, CUDA's own context)
    if (allocated + free >= total * 0.8) {
      board.add(
        'gpu_memory_exhausted',
        0.8,
        t('why.legacyFills', { allocated: fmtBytes(allocated), free: fmtBytes(free), total: fmtBytes(total) }),
        evidence,
      );
    } else if (total - allocated - free >= total * 0.5) {
      board.add(
        'memory_held_by_other_process',
        0.5,
        t('why.legacyNeither', { rest: fmtBytes(total - allocated - free), total: fmtBytes(total) }),
        evidence,
      );
    }
  }
}

/** The figures of the last current-wording PyTorch out-of-memory message: what this process held, what it asked
 *  for, and the GPU's total (bytes). For the machine-side arithmetic: "without PID N this job would fit". */
export function torchOomFigures(
  signals: Map<string, SignalState>,
): { self: number; requested: number; total: number } | null {
  const st = signals.get('torch.oom.current');
  if (!st) return null;
  const m = Collector.matches(st).at(-1);
  if (!m) return null;
  const requested = parseSize(m.values.requested);
  const total = parseSize(m.values.total);
  primeSelf();
  const self = parseSize(SELF.exec(m.text)?.[1]);
  return requested !== undefined && total !== undefined && self !== undefined ? { self, requested, total } : null;
}

/**
 * The other frameworks' out-of-memory messages give the request (and Paddle what it had allocated and what was
 * available); with the GPU's total where the input states it:
 * - a request larger than the whole GPU is the job itself (JAX/XLA "Out of memory while trying to allocate N bytes",
 *   XLA's "Failed to allocate request for X (NB)", TensorFlow's "failed to allocate X (N bytes) from device", CuPy's
 *   "Out of memory allocating N bytes", Paddle's "Cannot allocate X memory");
 * - Paddle (paddle/fluid/memory/allocation): nothing allocated by Paddle and nothing available means the memory was
 *   taken before Paddle allocated (another process, or another framework's pool); Paddle holding most of what it
 *   could get while the request still does not fit is the job itself.
 */
/** a failure inside cuDNN or cuBLAS (their handles and workspaces live outside a framework's pool) */
const LIBRARY_FAILURE = /cublas|blas|cudnn|conv|dnn/i;

/**
 * TensorFlow prints the pool it takes when it creates the device ("Created TensorFlow device (… with N MB memory)")
 * and the GPU's total ("deviceMemorySize", "totalMemory"); the CUDA context and the libraries' handles and
 * workspaces get only what is outside the pool. When that is less than a context with its cuDNN/cuBLAS handles
 * (CONTEXT_AND_HANDLES_BYTES), a cuDNN or cuBLAS failure to initialise is the pool's doing: the figures state it.
 */
function tfPoolLeaves(board: Board, signals: Map<string, SignalState>, env: EnvironmentFacts): void {
  const gpu = env.gpus.find((g) => g.poolMiB !== undefined && g.totalMiB !== undefined);
  if (!gpu) return;
  if (![...signals.values()].some((st) => st.sig.kind !== 'context' && LIBRARY_FAILURE.test(st.group))) return;
  const left = (gpu.totalMiB! - gpu.poolMiB!) * MiB;
  if (left <= 0 || left >= CONTEXT_AND_HANDLES_BYTES) return;
  board.stated(
    'framework_preallocation',
    1.0,
    t('why.tfPoolLeaves', {
      pool: fmtBytes(gpu.poolMiB! * MiB),
      total: fmtBytes(gpu.totalMiB! * MiB),
      left: fmtBytes(left),
    }),
    [{ line: gpu.line, text: gpu.text }],
  );
}

/** StreamExecutor's device allocation: "failed to allocate 72.50M (76021760 bytes) from device" (the count of bytes
 *  is left out in some releases and pastes) */
const DEVICE_REGION = /failed to allocate (\S+?)(?: \(([\d,]+) bytes\))? from device/;

/**
 * StreamExecutor's "failed to allocate X from device: CUDA_ERROR_OUT_OF_MEMORY" (stream_executor/cuda/cuda_driver.cc
 * DeviceAllocate) is the BFC pool of TensorFlow, JAX or XLA asking the GPU for a region (bfc_allocator.cc Extend:
 * the whole pool at once unless allow_growth is on, sized from the memory free at start, and on failure asked again
 * 10% smaller, kBackpedalFactor): a failed one is memory the pool never had, not the job's tensors. When even a
 * region smaller than a CUDA context with its library handles could not be had, the GPU was nearly full before the
 * job allocated anything of its own: another process (or another framework's pool) holds it.
 */
function poolRegion(
  board: Board,
  signals: Map<string, SignalState>,
  ev: (st: SignalState, max?: number) => LogEvidence[],
): void {
  let smallest: number | undefined;
  let at: SignalState | undefined;
  for (const group of ['tf.cuda_driver.failed_to_allocate', 'cuda.error.out_of_memory']) {
    const st = signals.get(group);
    if (!st) continue;
    for (const m of Collector.matches(st)) {
      const r = DEVICE_REGION.exec(m.text);
      if (!r) continue;
      const size = r[2] ? Number(r[2].replace(/,/g, '')) : parseSize(r[1]);
      if (size !== undefined && size > 0 && (smallest === undefined || size < smallest)) {
        smallest = size;
        at = st;
      }
    }
  }
  if (smallest === undefined || smallest >= CONTEXT_AND_HANDLES_BYTES) return;
  board.stated('memory_held_by_other_process', 1.2, t('why.poolRegionSmall', { size: fmtBytes(smallest) }), ev(at!, 1));
  board.against('gpu_memory_exhausted', 0.5, t('why.jobSmall'));
}

/** darknet's check_error (src/cuda.c: printf("CUDA Error: %s\n", cudaGetErrorString(status))), in its own case; the
 *  row of the layer table it was building when it failed ("    0 ", parse.c prints "%5d " before each layer) */
const DARKNET_OOM = /^\s*(?:(\d+)\s+)?CUDA Error: out of memory\b/;

/**
 * darknet has no pool and no preallocation: it allocates every buffer of the network itself with cudaMalloc
 * (cuda_make_array) while it builds the layers, printing a row of the layer table per layer. Out of memory while
 * building layer 0 is before anything of the job's own was allocated: the GPU was taken (another process). Else it
 * is the network's own size, the cause darknet's documentation gives for it (AlexeyAB/darknet README: "if error Out
 * of memory occurs then in .cfg-file you should increase subdivisions=16, 32 or 64").
 */
function darknetLayers(board: Board, raw: SignalState, ev: (st: SignalState, max?: number) => LogEvidence[]): void {
  const m = Collector.matches(raw)
    .map((x) => DARKNET_OOM.exec(x.text))
    .find((x) => x !== null);
  if (!m) return;
  if (m[1] === '0') board.stated('memory_held_by_other_process', 1.2, t('why.darknetFirstLayer'), ev(raw, 1));
  else board.add('gpu_memory_exhausted', 1.0, t('why.darknetOwn'), ev(raw, 1));
}

/** more memory than any GPU has (the largest in 2026, B300, has 288 GB): a figure above it is not a usage */
export const NO_GPU_HAS_BYTES = 2 ** 40;
/**
 * the memory of the largest GPU made (B300: 288 GB of HBM3e, NVIDIA's datasheet; counted as GiB to stay on the safe
 * side): a request above it cannot fit on any GPU, whichever the input does not name
 */
export const LARGEST_GPU_BYTES = 288 * 2 ** 30;
/**
 * paddle/fluid/memory/allocation (2.x): "Cannot allocate X memory on GPU N, Y memory has been allocated and available
 * memory is only Z."
 */
const PADDLE = regexOf([
  /Cannot allocate (\S+?) memory on GPU \d+, /, // 1: the request
  /(\S+?) memory has been allocated /, // 2: what the process holds
  /and available memory is only (\S+?)\.?(?:\s|$)/, // 3: what is free
]);

function requestSizes(
  board: Board,
  signals: Map<string, SignalState>,
  ev: (st: SignalState, max?: number) => LogEvidence[],
  env: EnvironmentFacts,
): void {
  const totalMiB = env.gpus.find((g) => g.totalMiB !== undefined)?.totalMiB;
  const total = totalMiB !== undefined ? totalMiB * MiB : undefined;
  // the figures by their place in each source's wording (read from the line: a pasted line may stop after them)
  const bytes = (re: RegExp) => (text: string) => parseSize(re.exec(text)?.[1]?.replace(/,/g, '').concat(' bytes'));
  const reads: Array<[string, (text: string) => number | undefined]> = [
    ['xla-oom-allocator-adapter', bytes(/trying to allocate ([\d,]+) bytes/)],
    ['xla-failed-allocate-request', bytes(/request for \S+ \((\d+)B\)/)],
    ['tf.cuda_driver.failed_to_allocate', bytes(/\(([\d,]+) bytes\) from device/)],
    ['cupy.out_of_memory', bytes(/Out of memory allocating ([\d,]+) bytes/)],
    ['paddle-gpu-oom', (text) => parseSize(PADDLE.exec(text)?.[1])],
    ['paddle-gpu-oom-vmm', (text) => parseSize(/Cannot allocate (\S+?) memory/.exec(text)?.[1])],
  ];
  for (const [group, read] of reads) {
    const st = signals.get(group);
    if (!st) continue;
    const m = Collector.matches(st).at(-1)!;
    const requested = read(m.text);
    if (requested === undefined) continue;
    // larger than the GPU's total; no GPU named: larger than the largest GPU made, which no GPU can hold either
    if (requested > (total ?? LARGEST_GPU_BYTES)) {
      const why =
        total !== undefined
          ? t('why.tooLargeNever', { requested: fmtBytes(requested), total: fmtBytes(total) })
          : t('why.tooLargeAny', { requested: fmtBytes(requested), largest: fmtBytes(LARGEST_GPU_BYTES) });
      board.stated('gpu_memory_exhausted', 2.2, why, ev(st, 1));
      board.against('memory_held_by_other_process', 1.0, t('why.noRoomForLarger'));
      return;
    }
    if (group === 'paddle-gpu-oom') {
      const pm = PADDLE.exec(m.text);
      const allocated = parseSize(pm?.[2]);
      const available = parseSize(pm?.[3]);
      if (allocated === undefined || available === undefined) continue;
      // a figure larger than the GPU (or than any GPU made) is a counter gone wrong, not what Paddle holds: the
      // figures then say only that nothing was left, not whose it was
      if (allocated > (total ?? NO_GPU_HAS_BYTES)) continue;
      if (allocated < CONTEXT_AND_HANDLES_BYTES && available < requested) {
        board.stated(
          'memory_held_by_other_process',
          1.6,
          t('why.paddleNothing', { requested: fmtBytes(requested), available: fmtBytes(available) }),
          ev(st, 1),
        );
      } else if (
        allocated >= HELD_ELSEWHERE_MIN &&
        allocated >= 4 * available &&
        (total === undefined || allocated + available >= 0.6 * total)
      ) {
        board.stated(
          'gpu_memory_exhausted',
          1.4,
          t('why.paddleHolds', {
            allocated: fmtBytes(allocated),
            available: fmtBytes(available),
            requested: fmtBytes(requested),
          }),
          ev(st, 1),
        );
        board.against('memory_held_by_other_process', 0.4, t('why.jobSmall'));
      } else if (total !== undefined && total - allocated - available >= Math.max(HELD_ELSEWHERE_MIN, 0.3 * total)) {
        board.stated(
          'memory_held_by_other_process',
          1.4,
          t('why.paddleElsewhere', { elsewhere: fmtBytes(total - allocated - available), total: fmtBytes(total) }),
          ev(st, 1),
        );
      }
    }
  }
}
