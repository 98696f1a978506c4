// libs.missing: a library a framework needs is not found anywhere the loader looks (or a file in the way is
// not a valid library). A missing NEEDED entry stops the import; a missing dlopen fails at first use.
import { fail, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { consumerLabel, librariesOf, needsLibraries, shellQuote } from './common.js';
import * as nodePath from 'node:path';
import { t } from '../../../base/i18n/index.js';

export const missingCheck: Check = {
  id: 'libs.missing',
  category: 'libraries',
  get title() {
    return t('title.libs.missing');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const c of lib.consumers) {
      // A broken file in the way is libs.unloadable's case (its fix removes the file's folder, not adds another).
      for (const r of c.resolved.filter((x) => x.via === 'not_found' && !x.unloadable)) {
        // Another copy of the same name that the search cannot reach: the folder to add.
        const elsewhere = lib.copies.find(
          (k) => k.soname === r.name || k.links.some((l) => nodePath.posix.basename(l) === r.name),
        );
        const driver = r.family === 'libcuda' || r.family === 'libnvidia-ml';
        const fatal = r.how === 'needed' || r.how === 'preload';
        const elsewhereDir = elsewhere ? nodePath.posix.dirname(elsewhere.links[0] ?? elsewhere.path) : '';
        out.push(
          fail({
            check: this.id,
            severity: fatal || driver ? 'error' : 'warn',
            rootCause: driver ? 'no_device_visible' : 'library_missing',
            message:
              r.error && !/No such file/.test(r.error)
                ? t(r.requestedBy ? 'missing.cannotLoadBy' : 'missing.cannotLoad', {
                    consumer: consumerLabel(c),
                    lib: r.name,
                    error: r.error,
                    by: r.requestedBy ? nodePath.posix.basename(r.requestedBy) : '',
                  })
                : t(r.requestedBy ? 'missing.notFoundBy' : 'missing.notFound', {
                    consumer: consumerLabel(c),
                    lib: r.name,
                    by: r.requestedBy ? nodePath.posix.basename(r.requestedBy) : '',
                  }),
            evidence: [
              {
                text: t(c.resolved.length ? 'missing.searched' : 'missing.searchedNone', { lib: r.name }),
                source: 'loader emulation',
              },
              ...(r.error ? [{ text: r.error, source: 'loader emulation' }] : []),
              ...(elsewhere
                ? [
                    {
                      text: t('missing.elsewhere', { path: elsewhere.links[0] ?? elsewhere.path }),
                      source: 'inventory',
                    },
                  ]
                : []),
            ],
            affects: { library: r.name, ...(c.framework ? { framework: c.framework } : {}) },
            fix: driver
              ? { text: t('missing.driverFix'), commands: ['ldconfig -p | grep -E "libcuda|libnvidia-ml"'] }
              : elsewhere
                ? {
                    text: t('missing.elsewhereFix', { lib: r.name }),
                    commands: [
                      `export LD_LIBRARY_PATH=${shellQuote(elsewhereDir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`,
                    ],
                  }
                : { text: t('missing.installFix', { lib: r.name }), commands: [] },
          }),
        );
      }
    }
    return out;
  },
};
