// PaddlePaddle builds: which CUDA, cuDNN, Python and GPUs each paddlepaddle-gpu release was made for (the
// data in src/knowledge/paddle.json, read from PaddlePaddle's install docs). Paddle names its CUDA builds in
// the version itself up to 2.6 ("2.6.1.post120" is the CUDA 12.0 build, the plain "2.6.1" the PyPI default,
// CUDA 11.8) and by the index folder from 3.0 (…/packages/stable/cu126/, same version for every build).
import { knowledge } from '../../knowledge/index.js';
import { cudaSupportsComputeCapability, type Os } from './cuda.js';
import { compareVersions, majorMinor } from './version.js';

export interface PaddleVariantInfo {
  /** "cu120" */
  name: string;
  cuda: string;
  cudnn: string | null;
  /** the version exactly as pip installs it ("2.6.2.post120") */
  pip: string;
  /** "-i URL" / "-f URL" */
  index: string;
  pypiDefault: boolean;
}

export interface PaddleBuild {
  /** the data's row ("2.6.2"); `assumedFrom` says when the version asked for is another patch of its series */
  version: string;
  platform: Os;
  python: string[];
  /** the docs' floor ("GPU computing power over 3.5"); see effectiveMinComputeCapability for a build's own */
  minComputeCapability: string;
  variants: PaddleVariantInfo[];
  /** the build asked for; null: every build of the release */
  variant: PaddleVariantInfo | null;
  confidence: 'read' | 'recalled';
  notes: string[];
  sources: string[];
  assumedFrom: string | null;
}

/**
 * Split a pip version of paddlepaddle-gpu: "2.6.1.post120" → { version: "2.6.1", variant: "cu120" };
 * "3.0.0" → { version: "3.0.0", variant: null }. A local label "+cu126" (how some logs write it) counts too.
 */
export function splitPaddleVersion(pipVersion: string): { version: string; variant: string | null } {
  const post = /^(.*?)\.post(\d{2,3})$/.exec(pipVersion);
  if (post) return { version: post[1]!, variant: `cu${post[2]}` };
  const local = /^(.*?)\+(cu\d{2,3})$/i.exec(pipVersion);
  if (local) return { version: local[1]!, variant: local[2]!.toLowerCase() };
  return { version: pipVersion, variant: null };
}

/** "cu120" → "12.0", "cu118" → "11.8", "cu92" → "9.2"; null for other names. */
export function cudaOfPaddleVariant(name: string): string | null {
  const m = /^cu(\d+)(\d)$/.exec(name);
  return m ? `${Number(m[1])}.${m[2]}` : null;
}

function releaseRow(version: string, platform: Os) {
  const rows = knowledge()
    .paddle.releases.filter((r) => r.platform === platform)
    .sort((a, b) => compareVersions(a.version, b.version));
  const exact = rows.find((r) => compareVersions(r.version, version) === 0);
  if (exact) return { row: exact, assumed: false };
  // the docs list the last patch of each series: another patch of the series takes its row
  const series = rows.filter((r) => majorMinor(r.version) === majorMinor(version));
  const below = series.filter((r) => compareVersions(r.version, version) <= 0);
  const row = below[below.length - 1] ?? series[0];
  return row ? { row, assumed: true } : null;
}

/**
 * A paddlepaddle-gpu release on `platform` and, when `variant` is given ("cu120"; "pypi": the build the plain
 * version installs), that build. null when the data has no such release or the release has no such build.
 */
export function paddleBuild(version: string, variant?: string, platform: Os = 'linux'): PaddleBuild | null {
  const found = releaseRow(version, platform);
  if (!found) return null;
  const { row, assumed } = found;
  const k = knowledge().paddle;
  const variants: PaddleVariantInfo[] = row.variants.map((v) => ({ ...v }));
  let chosen: PaddleVariantInfo | null = null;
  if (variant === 'pypi') chosen = variants.find((v) => v.pypiDefault) ?? null;
  else if (variant) {
    chosen = variants.find((v) => v.name === variant) ?? null;
    if (!chosen) return null;
  }
  const notes = row.notes ? [row.notes] : [];
  if (row.confidence === 'recalled')
    notes.push(`The ${row.version} row is recalled, not read from a source: check it before relying on it.`);
  return {
    version: row.version,
    platform,
    python: row.python,
    minComputeCapability: row.minComputeCapability,
    variants,
    variant: chosen,
    confidence: row.confidence,
    notes,
    sources: [row.source, k.versionNaming.source],
    assumedFrom: assumed ? row.version : null,
  };
}

/** Every paddlepaddle-gpu release of the data on a platform, oldest first. */
export function paddleVersions(platform: Os = 'linux'): string[] {
  return knowledge()
    .paddle.releases.filter((r) => r.platform === platform)
    .map((r) => r.version)
    .sort(compareVersions);
}

/**
 * The lowest compute capability a build runs on: the docs' floor, raised to what the build's CUDA can
 * target at all (CUDA 12 has no Kepler code, whatever the docs of the release say).
 */
export function effectiveMinComputeCapability(docsFloor: string, cuda: string): string {
  const tk = knowledge().computeCapability.toolkits.find((t) => t.cuda === majorMinor(cuda));
  return tk && compareVersions(tk.minComputeCapability, docsFloor) > 0 ? tk.minComputeCapability : docsFloor;
}

/** Can a build made with CUDA `cuda` hold code for compute capability `cc`? (null: the data does not say) */
export function paddleCudaKnowsGpu(cuda: string, cc: string): boolean | null {
  return cudaSupportsComputeCapability(cuda, cc);
}

/** The pip command that installs one build ("python -m pip install paddlepaddle-gpu==2.6.2.post120 -i …"). */
export function paddleInstallCommand(v: Pick<PaddleVariantInfo, 'pip' | 'index'>): string {
  return `python -m pip install paddlepaddle-gpu==${v.pip} ${v.index}`;
}

/** How Paddle finds cuDNN on a platform, and the start-up version check (texts with their sources). */
export function paddleCudnnFacts(platform: Os): {
  loading: { text: string; source: string } | null;
  versionCheck: { text: string; source: string };
} {
  const k = knowledge().paddle;
  const l = k.cudnnLoading.find((x) => x.platform === platform);
  return {
    loading: l ? { text: l.text, source: l.source } : null,
    versionCheck: { text: k.cudnnVersionCheck.text, source: k.cudnnVersionCheck.source },
  };
}
