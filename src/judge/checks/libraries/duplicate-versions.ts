// libs.duplicate-versions: two versions of one library reachable by one framework — which one wins, why,
// and (when the framework's own copy loses) the LD_LIBRARY_PATH value that makes it win.
// LD_LIBRARY_PATH winning over the framework's own copy is libs.ld-library-path-shadowing's case.
import * as nodePath from 'node:path';
import { ok, warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import {
  consumerLabel,
  isOwnCopy,
  label,
  librariesOf,
  needsLibraries,
  shellQuote,
  versionText,
  viaText,
} from './common.js';
import { sameVersion } from '../../../base/versions.js';
import { t } from '../../../base/i18n/index.js';

export const duplicateVersionsCheck: Check = {
  id: 'libs.duplicate-versions',
  category: 'libraries',
  get title() {
    return t('title.libs.duplicate-versions');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const c of lib.consumers) {
      for (const r of c.resolved) {
        if (!r.family || !r.path || r.via === 'not_found') continue;
        const others = r.shadowed.filter(
          (x) => x.version !== null && r.version !== null && !sameVersion(x.version, r.version),
        );
        if (others.length === 0) continue;
        const winnerOwn = isOwnCopy(c, r.realPath ?? r.path, lib);
        const ownLoser = others.find((x) => isOwnCopy(c, x.realPath ?? x.path, lib));
        const evidence = [
          {
            text:
              `${r.name} → ` +
              `${r.path}${r.realPath && r.realPath !== r.path ? ` (${nodePath.posix.basename(r.realPath)})` : ''}, ` +
              `${versionText(r.version)}, via ` +
              `${viaText(r, c)}${r.requestedBy ? `, asked for by ${r.requestedBy}` : ''}`,
            source: 'loader emulation',
          },
          ...others.map((x) => ({
            text:
              `also reachable: ${x.realPath ?? x.path}, ${versionText(x.version)}, via ` +
              `${x.via.replace(/_/g, ' ')} (searched after the winner)`,
            source: 'loader emulation',
          })),
        ];
        if (r.via === 'ld_preload' && ownLoser && !r.unloadable) {
          const from = r.preloadFrom ?? 'LD_PRELOAD';
          out.push(
            warn({
              check: this.id,
              rootCause: r.family.startsWith('libcudnn') ? 'cudnn_version_mismatch' : 'library_conflict',
              message: t('dup.preloaded', {
                consumer: consumerLabel(c),
                lib: label(r.family),
                version: versionText(r.version),
                path: r.realPath ?? r.path,
                from,
                own: versionText(ownLoser.version),
                ownPath: ownLoser.realPath ?? ownLoser.path,
              }),
              details: t('dup.preloadedDetails', { from }),
              evidence: [
                evidence[0]!,
                ...others.map((x) => ({
                  text:
                    x.via === 'preloaded'
                      ? `also mapped, not used: ${x.realPath ?? x.path}, ${versionText(x.version)}, loaded by path ` +
                        `by ${consumerLabel(c)}'s Python code after ${from}`
                      : `also reachable: ${x.realPath ?? x.path}, ${versionText(x.version)}, via ` +
                        `${x.via.replace(/_/g, ' ')}`,
                  source: 'loader emulation',
                })),
              ],
              affects: {
                library: r.name,
                ...(from === 'LD_PRELOAD' ? { env: 'LD_PRELOAD' } : {}),
                ...(c.framework ? { framework: c.framework } : {}),
              },
              fix:
                from === 'LD_PRELOAD'
                  ? { text: t('dup.preloadedFix'), commands: ['unset LD_PRELOAD'] }
                  : { text: t('dup.preloadedFixEtc', { path: r.path }), commands: [] },
            }),
          );
          continue;
        }
        if (winnerOwn || !ownLoser) {
          // cuDNN's sub-libraries follow libcudnn: one line for the family is enough (mismatches have their own check).
          if (r.family.startsWith('libcudnn_')) continue;
          out.push(
            ok({
              check: this.id,
              message: t('dup.ok', {
                consumer: consumerLabel(c),
                lib: label(r.family),
                version: versionText(r.version),
                // the loader's technical names stay (rpath, LD_LIBRARY_PATH); the one word in prose is translated
                via: r.via === 'preloaded' ? t('via.preloaded') : r.via.replace(/_/g, ' '),
                others: others
                  .map((x) => t('dup.otherAt', { version: x.version ?? '?', path: x.realPath ?? x.path }))
                  .join(t('list.comma')),
                n: others.length,
              }),
              details: t('dup.details'),
              evidence,
              affects: { library: r.name, ...(c.framework ? { framework: c.framework } : {}) },
            }),
          );
          continue;
        }
        if (r.via === 'ld_library_path') continue; // libs.ld-library-path-shadowing says it, with its fix
        const dir = nodePath.posix.dirname(ownLoser.path);
        out.push(
          warn({
            check: this.id,
            rootCause: 'library_conflict',
            message: t('dup.wouldLoad', {
              consumer: consumerLabel(c),
              lib: label(r.family),
              version: versionText(r.version),
              path: r.realPath ?? r.path,
              own: versionText(ownLoser.version),
              ownPath: ownLoser.path,
            }),
            evidence,
            affects: { library: r.name, ...(c.framework ? { framework: c.framework } : {}) },
            fix: {
              text: t('dup.fix'),
              commands: [`export LD_LIBRARY_PATH=${shellQuote(dir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`],
            },
          }),
        );
      }
    }
    return out;
  },
};
