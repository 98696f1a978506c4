// env.library-path: CUDA folders on LD_LIBRARY_PATH and libraries forced in with LD_PRELOAD. They change
// which cuDNN/CUDA file every framework loads (the libraries check says which one wins; this one says why).
import { finding, type Finding } from '../../core/finding.js';
import { envFinding } from './env-finding.js';
import { listOf } from '../../core/format.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

const CUDA_DIR = /cuda|cudnn|nvidia|cublas|nccl|tensorrt/i;
const CUDA_LIB = /lib(cudnn|cudart|cublas|cuda|nvidia-ml|nccl|nvrtc|cufft|cusparse|curand|nvJitLink)/;

export const libraryPathCheck: Check = {
  id: 'env.library-path',
  category: 'env',
  title: 'LD_LIBRARY_PATH and LD_PRELOAD',
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const llp = s.env.LD_LIBRARY_PATH;
    if (llp !== undefined) {
      const dirs = llp.split(':');
      const llpVar = { check: this.id, name: 'LD_LIBRARY_PATH', value: llp };
      const cuda = dirs.filter((d) => CUDA_DIR.test(d));
      const compat = cuda.filter((d) => /\/compat\/?$/.test(d));
      if (compat.length > 0) {
        out.push(
          envFinding({
            ...llpVar,
            rootCause: 'driver_too_old',
            message: `LD_LIBRARY_PATH puts a forward-compatibility libcuda first (${listOf(compat)}): it only works on data-center GPUs with a matching older kernel driver, otherwise "Error 803: system has unsupported display driver / cuda driver combination"`,
            fix: { text: 'Remove the compat folder unless the kernel driver is older than the CUDA version you run.', commands: [`export LD_LIBRARY_PATH=${dirs.filter((d) => !compat.includes(d)).join(':')}`] },
          }),
        );
      }
      // Folders the frameworks really load from count too, whatever their names (/usr/lib/x86_64-linux-gnu).
      const loadedFrom = new Set((s.libraries?.consumers ?? []).flatMap((c) => c.resolved.filter((r) => r.via === 'ld_library_path' && r.path).map((r) => r.path!.replace(/\/[^/]*$/, '').replace(/\/glibc-hwcaps\/[^/]+$/, ''))));
      const shown = dirs.filter((d) => d !== '' && (CUDA_DIR.test(d) || loadedFrom.has(d.replace(/\/$/, ''))));
      if (shown.length > 0) {
        out.push(
          envFinding({
            ...llpVar,
            severity: 'info',
            rootCause: null,
            message: llpSummary(s, shown),
            details: "Pip-installed PyTorch, TensorFlow and JAX bring their own CUDA and cuDNN; a folder here is searched before a library's RUNPATH and can shadow them (the CUDA libraries area says when it does).",
          }),
        );
      }
      if (dirs.some((d) => d === '')) {
        out.push(envFinding({ ...llpVar, severity: 'info', rootCause: null, message: 'LD_LIBRARY_PATH has an empty entry, which the loader reads as the current directory' }));
      }
    }
    const pre = s.env.LD_PRELOAD;
    if (pre !== undefined && CUDA_LIB.test(pre)) {
      out.push(
        envFinding({
          check: this.id,
          name: 'LD_PRELOAD',
          value: pre,
          rootCause: 'library_conflict',
          message: `LD_PRELOAD forces a CUDA library into every process: ${pre}`,
          details: 'A preloaded library wins over every framework\'s own copy, whatever its version.',
          fix: { text: 'Unset it unless you are sure every framework here was built for that exact library.', commands: ['unset LD_PRELOAD'] },
        }),
      );
    }
    const home = s.env.CUDA_HOME ?? s.env.CUDA_PATH;
    if (home !== undefined) {
      out.push(
        finding({
          check: this.id,
          severity: 'info',
          status: 'ok',
          rootCause: null,
          message: `CUDA_HOME/CUDA_PATH=${home}: used to build extensions (nvcc); pip-installed frameworks load their own CUDA runtime regardless`,
          evidence: [{ text: `${s.env.CUDA_HOME !== undefined ? 'CUDA_HOME' : 'CUDA_PATH'}=${home}`, source: 'environment' }],
        }),
      );
    }
    return out;
  },
};

/** What LD_LIBRARY_PATH's CUDA folders do here, in words that read as what they are: the driver's folders on a
 *  healthy machine, or the libraries the frameworks take from them (the library checks judge those). */
function llpSummary(s: Snapshot, cuda: string[]): string {
  const folders = listOf(cuda);
  const lib = s.libraries;
  if (!lib || lib.consumers.length === 0) return `LD_LIBRARY_PATH lists ${folders}`;
  const fromLlp = lib.consumers.flatMap((c) => c.resolved.filter((r) => r.via === 'ld_library_path' && r.family !== null));
  const driverOnly = fromLlp.every((r) => r.family === 'libcuda' || r.family === 'libnvidia-ml');
  if (driverOnly) {
    return fromLlp.length > 0
      ? `LD_LIBRARY_PATH lists ${folders}: the frameworks take only the driver (libcuda, NVML) from there, their CUDA libraries from their own files`
      : `LD_LIBRARY_PATH lists ${folders}: no framework takes a CUDA library from there`;
  }
  const names = listOf(fromLlp.filter((r) => r.family !== 'libcuda' && r.family !== 'libnvidia-ml').map((r) => r.family!));
  return `LD_LIBRARY_PATH lists ${folders}; the frameworks load ${names} from there`;
}
