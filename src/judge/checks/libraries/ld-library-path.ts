// libs.ld-library-path-shadowing: LD_LIBRARY_PATH puts another CUDA or cuDNN ahead of the framework's own
// copy (LD_LIBRARY_PATH is searched before DT_RUNPATH and the ld cache, and before a dlopen's RUNPATH).
// The fix is the exact LD_LIBRARY_PATH without the offending folders.
import { problem, type Consequence, type Finding } from '../../finding.js';
import { listOf, unique } from '../../../base/format.js';
import { cudnnReplacedConsequences, failsForSure } from './cudnn-mix.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { compareVersions, sameVersion } from '../../../base/versions.js';
import {
  consumerLabel,
  fixWithoutDirs,
  isOwnCopy,
  label,
  ldLibraryPathDirOf,
  librariesOf,
  needsLibraries,
  versionText,
} from './common.js';
import { t } from '../../../base/i18n/index.js';

export const ldLibraryPathCheck: Check = {
  id: 'libs.ld-library-path-shadowing',
  category: 'libraries',
  get title() {
    return t('title.libs.ld-library-path-shadowing');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    if (lib.ldLibraryPath.length === 0) return [];
    const out: Finding[] = [];
    for (const c of lib.consumers) {
      const hits = c.resolved.filter(
        (r) =>
          r.via === 'ld_library_path' && r.family && r.family !== 'libcuda' && r.family !== 'libnvidia-ml' && r.path,
      );
      const bad: { r: (typeof hits)[number]; own: (typeof hits)[number]['shadowed'][number] }[] = [];
      // Sub-libraries under a libcudnn that is the framework's own: libs.cudnn-sublibrary-mismatch states that mix.
      const mainCudnn = c.resolved.find((r) => r.family === 'libcudnn');
      const mainOwn = mainCudnn?.via !== 'ld_library_path';
      for (const r of hits) {
        if (r.family?.startsWith('libcudnn_') && mainOwn) continue;
        const own = r.shadowed.find((x) => isOwnCopy(c, x.realPath ?? x.path, lib));
        if (!own || own.realPath === r.realPath) continue;
        if (r.version !== null && own.version !== null && sameVersion(r.version, own.version)) continue;
        bad.push({ r, own });
      }
      if (bad.length === 0) continue;
      const dirs = unique(bad.map(({ r }) => ldLibraryPathDirOf(lib, r.path!)).filter((d): d is string => d !== null));
      const older = bad.filter(({ r, own }) => r.version && own.version && compareVersions(r.version, own.version) < 0);
      // What the framework does with the copy that loads: for cuDNN its own version check decides; for the
      // other libraries an older copy may lack what the build needs, or work.
      const cudnn = bad.find(({ r }) => r.family === 'libcudnn');
      const consequences: Consequence[] = [
        ...(cudnn ? cudnnReplacedConsequences(c.framework, cudnn.own.version, cudnn.r.version) : []),
        ...older
          .filter(({ r }) => !r.family?.startsWith('libcudnn'))
          .map(({ r, own }) => ({
            ...(c.framework ? { framework: c.framework } : {}),
            outcome: 'unknown' as const,
            certainty: 'possible' as const,
            text: t('llpshadow.older', {
              lib: label(r.family),
              version: versionText(r.version),
              own: versionText(own.version),
              consumer: consumerLabel(c),
            }),
            source:
              'NVIDIA CUDA compatibility guide: minor-version compatibility is forward only (a library built against ' +
              'a newer minor may need newer symbols)',
          })),
      ];
      const sure = consequences.some(failsForSure);
      out.push(
        problem({
          check: this.id,
          severity: sure ? 'error' : 'warn',
          rootCause: bad.some(({ r }) => r.family?.startsWith('libcudnn'))
            ? 'cudnn_version_mismatch'
            : 'library_conflict',
          message: t('llpshadow.message', {
            consumer: consumerLabel(c),
            what: listOf(
              bad.map(({ r, own }) =>
                t('llpshadow.instead', {
                  lib: label(r.family),
                  version: versionText(r.version),
                  own: versionText(own.version),
                }),
              ),
            ),
          }),
          consequences,
          evidence: [
            { text: `LD_LIBRARY_PATH=${lib.ldLibraryPath.join(':')}`, source: 'environment' },
            ...bad.flatMap(({ r, own }) => [
              {
                text: `${r.name} → ${r.realPath ?? r.path} (${versionText(r.version)}) via LD_LIBRARY_PATH`,
                source: 'loader emulation',
              },
              {
                text:
                  `  loses: ${own.realPath ?? own.path} (${versionText(own.version)}) via ` +
                  `${own.via.replace(/_/g, ' ')}`,
                source: 'loader emulation',
              },
            ]),
          ],
          affects: {
            env: 'LD_LIBRARY_PATH',
            library: bad[0]!.r.name,
            ...(c.framework ? { framework: c.framework } : {}),
          },
          fix: { text: t('llpshadow.fix', { dirs: listOf(dirs) }), commands: fixWithoutDirs(lib, dirs) },
        }),
      );
    }
    return out;
  },
};
