// GPU product names → compute capability, as nvidia-smi prints them ("NVIDIA GeForce RTX 3090",
// "Tesla V100-SXM2-16GB", "NVIDIA H100 80GB HBM3") and as people write them in logs ("RTX 3090", "A100",
// "GTX1080Ti"). Matching is by whole-word phrases; the longest matching phrase wins.
import { knowledge } from '../../knowledge/index.js';

export interface GpuProduct {
  computeCapability: string;
  architecture: string;
  class: 'geforce' | 'workstation' | 'datacenter' | 'jetson';
  /** the phrase of the table that matched */
  matched: string;
  source: string;
}

// Words that carry no model information. "quadro" stays: it tells Quadro RTX 6000 (Turing) apart.
const NOISE = new Set([
  'nvidia',
  'geforce',
  'tesla',
  'gpu',
  'graphics',
  'laptop',
  'mobile',
  'notebook',
  'edition',
  'founders',
  'generation',
  'r',
  'tm',
]);

/** Lower-case tokens of a product name: splits "GTX1080Ti" into gtx 1080 ti, drops vendor words and memory sizes. */
export function normalizeGpuName(name: string): string[] {
  const s = name
    .toLowerCase()
    .replace(/[®™]/g, ' ')
    .replace(/\((r|tm)\)/g, ' ')
    .replace(/\b(gtx|rtx|gts|gt|mx)(\d)/g, '$1 $2')
    .replace(/(\d)(ti|super)\b/g, '$1 $2')
    .replace(/[^a-z0-9]+/g, ' ');
  return s
    .split(' ')
    .filter((t) => t.length > 0 && !NOISE.has(t))
    .filter((t) => !/^\d+(gb|g|mb)$/.test(t));
}

function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/** The product row for a GPU name, or null when no phrase of the table matches. */
export function gpuProduct(productName: string): GpuProduct | null {
  const tokens = normalizeGpuName(productName);
  if (tokens.length === 0) return null;
  let best: { product: GpuProduct; len: number; chars: number } | null = null;
  for (const p of knowledge().gpus.products) {
    for (const n of p.names) {
      // the table's phrases go through the same normalisation ("mx550" → mx 550)
      const phrase = normalizeGpuName(n);
      if (phrase.length === 0) continue;
      if (!containsPhrase(tokens, phrase)) continue;
      // longest phrase wins (in words, then characters): "rtx 6000 ada" over "rtx 6000"
      if (!best || phrase.length > best.len || (phrase.length === best.len && n.length > best.chars)) {
        best = {
          product: {
            computeCapability: p.computeCapability,
            architecture: p.architecture,
            class: p.class,
            matched: n,
            source: p.source,
          },
          len: phrase.length,
          chars: n.length,
        };
      }
    }
  }
  return best?.product ?? null;
}

/** Compute capability ("8.6") of a GPU product name, or null when the name is unknown. */
export function computeCapabilityOfGpu(productName: string): string | null {
  return gpuProduct(productName)?.computeCapability ?? null;
}
