// python.duplicate-dist-info: one distribution with two metadata folders in one environment, typically
// after an interrupted or overlapping pip install (or a pip and a distutils/egg install). pip, importlib
// metadata and the frameworks' own version checks then see whichever folder comes first, while the
// module files on disk are a mix of both versions.
import { warn, type Finding } from '../../finding.js';
import { comparePep440, parseVersion } from '../../../base/pep440.js';
import { isRelevant } from '../../../gather/python/relevant.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { appliesPython, envLabel, pipCommand, scannedEnvs, shq } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const duplicateDistInfoCheck: Check = {
  id: 'python.duplicate-dist-info',
  category: 'python',
  get title() {
    return t('title.python.duplicate-dist-info');
  },
  applies: appliesPython,
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) {
      for (const d of e.duplicates) {
        const relevant = isRelevant(d.name);
        const versions = [...new Set(d.entries.map((x) => x.version ?? '?'))];
        const sameFolder = new Set(d.entries.map((x) => x.path.slice(0, x.path.lastIndexOf('/')))).size === 1;
        // The version to keep: the newest is the usual intent of the last install; the user decides.
        const keep = versions
          .filter((v) => v !== '?')
          .sort(compareLoose)
          .at(-1);
        out.push(
          warn({
            check: this.id,
            severity: relevant ? 'warn' : 'info',
            rootCause: relevant ? 'library_conflict' : null,
            message: t(sameFolder ? 'dupdist.message' : 'dupdist.messageFolders', {
              name: d.name,
              n: d.entries.length,
              env: envLabel(e),
              versions: versions.join(', '),
            }),
            evidence: d.entries.map((x) => ({
              text: `${d.name} ${x.version ?? t('dupdist.noVersion')}`,
              source: x.path,
            })),
            affects: { library: d.name },
            fix: {
              text: keep ? t('dupdist.fixKeep', { keep }) : t('dupdist.fix'),
              commands: [
                pipCommand(e, ['install', '--force-reinstall', '--no-deps', keep ? `${d.name}==${keep}` : d.name]),
              ],
              manual: d.entries.filter((x) => x.version !== keep).map((x) => `rm -rf ${shq(x.path)}`),
            },
          }),
        );
      }
    }
    return out;
  },
};

function compareLoose(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  return pa && pb ? comparePep440(pa, pb) : a.localeCompare(b);
}
