// What each framework does when libcudnn.so.9 and its sub-libraries come from different copies. The files
// that load are a fact (the loader emulation, or /proc/PID/maps); what happens next is a consequence, per
// framework, at the certainty the evidence gives:
//  - PyTorch's convolutions do not check versions (conv2d ran with 9.19 + 9.14 in the lab). Its Python-side
//    check (torch/backends/cudnn/__init__.py _init(), run by the first version() or is_acceptable() call)
//    compares the cuDNN it was built with to the version cuDNN reports, and raises when the major differs or the
//    run-time minor is older. With mixed copies cuDNN reports the sub-libraries' version (9.14 in the lab).
//  - TensorFlow/XLA make the same comparison ("Loaded runtime CuDNN library: X but source was compiled with: Y",
//    xla/stream_executor/cuda/cuda_dnn.cc); TensorFlow was not in the lab, so this stays "expected".
//  - JAX checks only that cuDNN is not older than its build's minimum (jax_plugins/xla_cuda*/ _check_cuda_versions);
//    in the lab it ran with 9.19 + 9.14 (runs: knowledge/libraries/cudnn-mix-observations.json).
//  - cuDNN's own check (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH) may refuse a mix: possible; for 9.19 + 9.14 it
//    did not (a ctypes smoke test in the lab ran handle, heuristics, convolution and cudnnFind).
import type { Certainty, Consequence } from '../../finding.js';
import { compareVersions } from '../../../base/versions.js';
import observations from '../../../knowledge/libraries/cudnn-mix-observations.json' with { type: 'json' };
import { t } from '../../../base/i18n/index.js';

interface ObservationRow {
  framework: string;
  frameworkVersion: string;
  libcudnn: string;
  subLibraries: string;
  outcome: 'refused' | 'ran';
  what: string;
  source: string;
}
const ROWS = (observations as { rows: ObservationRow[] }).rows;

const TORCH_RULE =
  'torch/backends/cudnn/__init__.py _init(): refuses when the run-time major differs or its minor is older than the ' +
  'build';
const TF_RULE =
  'xla/stream_executor/cuda/cuda_dnn.cc: "CuDNN library needs to have matching major version and equal or higher ' +
  'minor version"';
const JAX_RULE = "jax_plugins/xla_cuda*/__init__.py _check_cuda_versions: compares cuDNN with the build's minimum only";
const CUDNN_RULE =
  "cuDNN 9's own check of its sub-libraries (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, NVIDIA cuDNN API reference)";

export interface CudnnMix {
  framework: 'torch' | 'tensorflow' | 'jax' | 'cupy' | null;
  /** the version of libcudnn.so.N that loads */
  main: string | null;
  /** the version of the sub-libraries that come from another copy (the oldest, when several) */
  others: string | null;
  /** libcudnn_graph is among them: cuDNN then reports their version as its own (seen in the lab) */
  graphDiffers: boolean;
  /** the cuDNN the framework was built with, when known ("9" for TensorFlow's build info) */
  built?: string | null;
}

const mm = (v: string | null | undefined) => (v ? v.split('.').slice(0, 2).join('.') : null);

function observed(framework: string, mix: CudnnMix): ObservationRow | undefined {
  return ROWS.find(
    (r) => r.framework === framework && r.libcudnn === mm(mix.main) && r.subLibraries === mm(mix.others),
  );
}

/** A version check of the "same major, run-time minor not older" kind: refuses? null when it cannot tell. */
export function refusesByMinor(built: string | null, runtime: string | null): boolean | null {
  if (!built || !runtime) return null;
  const [bMaj, bMin] = built.split('.');
  const [rMaj, rMin] = runtime.split('.');
  if (bMaj !== rMaj) return true;
  if (bMin === undefined || rMin === undefined) return null;
  return compareVersions(rMin, bMin) < 0;
}

export function cudnnMixConsequences(mix: CudnnMix): Consequence[] {
  const out: Consequence[] = [];
  const reported = mix.graphDiffers ? mix.others : mix.main;
  const cudnnSeen = observed('cudnn', mix);
  const cudnnOwn: Consequence = cudnnSeen
    ? {
        outcome: 'runs',
        certainty: 'verified',
        text: t('mix.cudnnAccepts', { what: cudnnSeen.what }),
        source: cudnnSeen.source,
      }
    : {
        outcome: 'unknown',
        certainty: 'possible',
        text: t('mix.cudnnMayRefuse', { main: mix.main ?? '?', others: mix.others ?? '?' }),
        source: CUDNN_RULE,
      };
  switch (mix.framework) {
    case 'torch': {
      // torch's pip wheel pins the cuDNN it was built with and preloads it: that is the libcudnn.so.9 that loads.
      const built = mix.built ?? mix.main;
      const refuses = refusesByMinor(built, reported);
      const seen = observed('torch', mix);
      // torch's C++ convolution does not run the version check; torch/backends/cudnn/__init__.py does, at the
      // first version() or is_acceptable() call, and caches the version before raising.
      if (seen?.outcome === 'ran')
        out.push({
          framework: 'torch',
          outcome: 'runs',
          certainty: 'verified',
          text: t('mix.torchRan', { version: seen.frameworkVersion }),
          source: seen.source,
        });
      else out.push({ ...cudnnOwn, framework: 'torch', text: t('mix.torchNoCheck', { inner: lower(cudnnOwn.text) }) });
      if (refuses) {
        out.push({
          framework: 'torch',
          outcome: 'fails',
          certainty: seen ? 'verified' : mix.graphDiffers ? 'expected' : 'possible',
          text: t('mix.torchRaises', { built: tuple(built), reported: tuple(reported) }),
          source: seen ? `${seen.source}; rule: ${TORCH_RULE}` : TORCH_RULE,
        });
      } else {
        out.push({
          framework: 'torch',
          outcome: 'runs',
          certainty: 'expected',
          text: t('mix.torchPasses', { built: built ?? '?', reported: reported ?? '?' }),
          source: TORCH_RULE,
        });
      }
      return out;
    }
    case 'tensorflow': {
      const refuses = refusesByMinor(mix.built ?? null, reported);
      if (refuses)
        out.push({
          framework: 'tensorflow',
          outcome: 'fails',
          text: t('mix.tfRefuses', { loaded: String(reported), built: String(mix.built) }),
          certainty: 'expected',
          source: TF_RULE,
        });
      else
        out.push({
          framework: 'tensorflow',
          outcome: 'unknown',
          text: t(mix.built ? 'mix.tfComparesBuilt' : 'mix.tfCompares', {
            reported: reported ?? '?',
            built: mix.built ?? '',
          }),
          certainty: 'possible',
          source: TF_RULE,
        });
      out.push({ ...cudnnOwn, framework: 'tensorflow' });
      return out;
    }
    case 'jax': {
      const seen = observed('jax', mix);
      if (seen?.outcome === 'ran')
        out.push({
          framework: 'jax',
          outcome: 'runs',
          text: t('mix.jaxRan', { version: seen.frameworkVersion, libcudnn: seen.libcudnn, subs: seen.subLibraries }),
          certainty: 'verified',
          source: `${seen.source}; ${JAX_RULE}`,
        });
      else
        out.push({
          ...cudnnOwn,
          framework: 'jax',
          text: t('mix.jaxNoCheck', { inner: lower(cudnnOwn.text) }),
          source: `${JAX_RULE}; ${cudnnOwn.source}`,
        });
      return out;
    }
    default:
      return [{ ...cudnnOwn, ...(mix.framework ? { framework: mix.framework } : {}) }];
  }
}

function lower(s: string): string {
  return `${s.charAt(0).toLowerCase()}${s.slice(1)}`;
}

/** cuDNN as a whole replaced by another copy (LD_LIBRARY_PATH ahead of the framework's own): the framework was
 *  built with its own copy's version (pip wheels pin it), and checks the one that loads. */
export function cudnnReplacedConsequences(
  framework: CudnnMix['framework'],
  own: string | null,
  loaded: string | null,
): Consequence[] {
  const refuses = refusesByMinor(own, loaded);
  switch (framework) {
    case 'torch':
      return refuses
        ? [
            {
              framework,
              outcome: 'fails',
              certainty: 'expected',
              text: t('mix.torchRefuses', { own: tuple(own), loaded: tuple(loaded) }),
              source: TORCH_RULE,
            },
          ]
        : [
            {
              framework,
              outcome: 'unknown',
              certainty: 'possible',
              text: t('mix.torchAccepts', { loaded: loaded ?? '?', own: own ?? '?' }),
              source: TORCH_RULE,
            },
          ];
    case 'tensorflow':
      return refuses
        ? [
            {
              framework,
              outcome: 'fails',
              certainty: 'expected',
              text: t('mix.tfRefuses', { loaded: String(loaded), built: String(own) }),
              source: TF_RULE,
            },
          ]
        : [
            {
              framework,
              outcome: 'unknown',
              certainty: 'possible',
              text: t('mix.tfAccepts', { loaded: loaded ?? '?', own: own ?? '?' }),
              source: TF_RULE,
            },
          ];
    case 'jax':
      return [
        {
          framework,
          outcome: 'unknown',
          certainty: 'possible',
          text: t('mix.jaxAccepts', { loaded: loaded ?? t('mix.thisOne') }),
          source: JAX_RULE,
        },
      ];
    default:
      return [];
  }
}

/** A consequence that says the job fails, at a certainty worth an error. */
export function failsForSure(c: Consequence): boolean {
  return c.outcome === 'fails' && c.certainty !== 'possible';
}

function tuple(v: string | null | undefined): string {
  if (!v) return '?';
  const p = v.split('.');
  return `(${[p[0] ?? '0', p[1] ?? '0', p[2] ?? '0'].join(', ')})`;
}
