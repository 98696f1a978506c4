// env.library-path: CUDA folders on LD_LIBRARY_PATH and libraries forced in with LD_PRELOAD. They change
// which cuDNN/CUDA file every framework loads (the libraries check says which one wins; this one says why).
import { ok, type Finding } from '../../finding.js';
import { envFinding } from './env-finding.js';
import { listOf } from '../../../base/format.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

const CUDA_DIR = /cuda|cudnn|nvidia|cublas|nccl|tensorrt/i;
const CUDA_LIB = /lib(cudnn|cudart|cublas|cuda|nvidia-ml|nccl|nvrtc|cufft|cusparse|curand|nvJitLink)/;

export const libraryPathCheck: Check = {
  id: 'env.library-path',
  category: 'env',
  get title() {
    return t('title.env.library-path');
  },
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
            message: t('llp.compat', { folders: listOf(compat) }),
            fix: {
              text: t('llp.compatFix'),
              commands: [`export LD_LIBRARY_PATH=${dirs.filter((d) => !compat.includes(d)).join(':')}`],
            },
          }),
        );
      }
      // Folders the frameworks really load from count too, whatever their names (/usr/lib/x86_64-linux-gnu).
      const loadedFrom = new Set(
        (s.libraries?.consumers ?? []).flatMap((c) =>
          c.resolved
            .filter((r) => r.via === 'ld_library_path' && r.path)
            .map((r) => r.path!.replace(/\/[^/]*$/, '').replace(/\/glibc-hwcaps\/[^/]+$/, '')),
        ),
      );
      const shown = dirs.filter((d) => d !== '' && (CUDA_DIR.test(d) || loadedFrom.has(d.replace(/\/$/, ''))));
      if (shown.length > 0) {
        out.push(
          envFinding({
            ...llpVar,
            severity: 'info',
            rootCause: null,
            message: llpSummary(s, shown),
            details: t('llp.details'),
          }),
        );
      }
      if (dirs.some((d) => d === '')) {
        out.push(envFinding({ ...llpVar, severity: 'info', rootCause: null, message: t('llp.empty') }));
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
          message: t('llp.preload', { value: pre }),
          details: t('llp.preloadDetails'),
          fix: { text: t('llp.preloadFix'), commands: ['unset LD_PRELOAD'] },
        }),
      );
    }
    const home = s.env.CUDA_HOME ?? s.env.CUDA_PATH;
    if (home !== undefined) {
      out.push(
        ok({
          check: this.id,
          message: t('llp.cudaHome', { home }),
          evidence: [
            { text: `${s.env.CUDA_HOME !== undefined ? 'CUDA_HOME' : 'CUDA_PATH'}=${home}`, source: 'environment' },
          ],
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
  if (!lib || lib.consumers.length === 0) return t('llp.lists', { folders });
  const fromLlp = lib.consumers.flatMap((c) =>
    c.resolved.filter((r) => r.via === 'ld_library_path' && r.family !== null),
  );
  const driverOnly = fromLlp.every((r) => r.family === 'libcuda' || r.family === 'libnvidia-ml');
  if (driverOnly) {
    return fromLlp.length > 0 ? t('llp.driverOnly', { folders }) : t('llp.noneFrom', { folders });
  }
  const names = listOf(
    fromLlp.filter((r) => r.family !== 'libcuda' && r.family !== 'libnvidia-ml').map((r) => r.family!),
  );
  return t('llp.loadsFrom', { folders, names });
}
