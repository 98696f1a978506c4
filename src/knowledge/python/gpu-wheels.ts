// Which GPU wheel of a framework a driver runs, per CUDA major: the rows of gpu-wheels.json (newest first per
// framework), asked by the fix plan's rebuild and by the CPU-only-build check alike, so that both name one build.
import rows from './gpu-wheels.json' with { type: 'json' };

export interface GpuWheel {
  framework: 'torch' | 'tensorflow' | 'jax';
  /** the lowest CUDA version a driver must report (nvidia-smi's "CUDA Version") to run this wheel */
  minDriverCuda: string;
  /** the variant's name: "cu128", "cuda13", "and-cuda" */
  tag: string;
  /** what pip installs: "torch", "jax[cuda13]", "tensorflow[and-cuda]" */
  requirement: string;
  /** the package index that serves the variant, when it is not PyPI */
  indexUrl?: string;
  /** the last release built for it ("2.5"), when newer releases are not */
  lastRelease?: string;
  /** installed with -U, as the framework's docs write it */
  upgrade?: boolean;
  source: string;
}

export type WheelFramework = GpuWheel['framework'];

export const GPU_WHEELS = rows as readonly GpuWheel[];

/** the frameworks, in the table's order */
export const WHEEL_FRAMEWORKS: readonly WheelFramework[] = [...new Set(GPU_WHEELS.map((r) => r.framework))];

/** a framework's wheels, newest first */
export function wheelsOf(framework: string): GpuWheel[] {
  return GPU_WHEELS.filter((r) => r.framework === framework);
}

/** "13.0" ≥ "12.8", numerically by part */
export function cudaAtLeast(have: string, need: string): boolean {
  const a = have.split('.').map(Number);
  const b = need.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** the newest wheel of the framework that a driver reporting this CUDA version ("12.4") runs, or null */
export function wheelFor(framework: string, driverCuda: string): GpuWheel | null {
  return wheelsOf(framework).find((r) => cudaAtLeast(driverCuda, r.minDriverCuda)) ?? null;
}
