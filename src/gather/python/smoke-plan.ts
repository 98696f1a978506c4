// Which native smoke tests to run (pure): one per distinct set of CUDA library files that the frameworks here
// would load, as the loader emulation (src/gather/libraries) resolved them. The files are loaded by path in dependency
// order, so that when cuDNN opens its sub-libraries by soname at run time it finds these, already loaded, as a
// framework's process would have them.
import type { Consumer, LibrariesSection, ResolvedLibrary } from '../snapshot/schema-libraries.js';
import { CUDNN8_SUBLIBRARIES, CUDNN9_SUBLIBRARIES } from '../../base/versions.js';

export interface SmokeFile {
  /** "libcuda", "libcudart", "libcublasLt", "libcublas", "libcudnn_graph", …, "libcudnn" */
  role: string;
  path: string;
  version: string | null;
}

export interface SmokePlan {
  consumers: Pick<Consumer, 'framework' | 'path' | 'environment'>[];
  /** every file, in the order they are loaded */
  files: SmokeFile[];
  cudart: string;
  cudnn: string;
  cublas: string | null;
}

/** Sub-libraries in dependency order (graph first for cuDNN 9, ops before cnn before adv for cuDNN 8). */
const SUB_ORDER: readonly string[] = [...CUDNN9_SUBLIBRARIES, ...CUDNN8_SUBLIBRARIES];

export function smokePlans(lib: Pick<LibrariesSection, 'consumers'>): { plans: SmokePlan[]; skipped: string | null } {
  const byKey = new Map<string, SmokePlan>();
  for (const c of lib.consumers) {
    if (c.framework === null || c.framework === 'cupy') continue; // CuPy's cuDNN is optional; the frameworks' is not
    const plan = planFor(c);
    if (!plan) continue;
    const key = plan.files.map((f) => f.path).join('\n');
    const known = byKey.get(key);
    if (known) known.consumers.push(...plan.consumers);
    else byKey.set(key, plan);
  }
  const plans = [...byKey.values()];
  return {
    plans,
    skipped:
      plans.length === 0
        ? 'no framework here loads cuDNN: the loader emulation found no libcudnn and libcudart for torch, TensorFlow ' +
          'or JAX'
        : null,
  };
}

function planFor(c: Consumer): SmokePlan | null {
  const found = (family: string): ResolvedLibrary | undefined =>
    c.resolved.find((r) => r.family === family && r.path !== null);
  const cudart = found('libcudart');
  const cudnn = found('libcudnn');
  if (!cudart || !cudnn) return null;
  const file = (role: string, r: ResolvedLibrary | undefined): SmokeFile[] =>
    r?.path ? [{ role, path: r.path, version: r.version }] : [];
  const subs = c.resolved
    .filter((r) => r.family !== null && r.family.startsWith('libcudnn_') && r.path !== null)
    .sort((a, b) => rank(a.family!) - rank(b.family!));
  const seen = new Set<string>();
  const files = [
    ...file('libcuda', found('libcuda')),
    ...file('libcudart', cudart),
    ...file('libcublasLt', found('libcublasLt')),
    ...file('libcublas', found('libcublas')),
    ...subs.flatMap((s) => file(s.family!, s)),
    ...file('libcudnn', cudnn),
  ].filter((f) => !seen.has(f.path) && (seen.add(f.path), true));
  return {
    consumers: [{ framework: c.framework, path: c.path, environment: c.environment }],
    files,
    cudart: cudart.path!,
    cudnn: cudnn.path!,
    cublas: found('libcublas')?.path ?? null,
  };
}

function rank(family: string): number {
  const i = SUB_ORDER.indexOf(family);
  return i < 0 ? SUB_ORDER.length : i;
}
