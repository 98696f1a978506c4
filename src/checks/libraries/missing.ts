// libs.missing: a library a framework needs is not found anywhere the loader looks (or a file in the way is
// not a valid library). A missing NEEDED entry stops the import; a missing dlopen fails at first use.
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { consumerLabel, librariesOf, needsLibraries, shellQuote } from './common.js';
import * as nodePath from 'node:path';
import { t } from '../../i18n/index.js';

export const missingCheck: Check = {
  id: 'libs.missing',
  category: 'libraries',
  get title() { return t('title.libs.missing'); },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const c of lib.consumers) {
      for (const r of c.resolved.filter((x) => x.via === 'not_found')) {
        // Another copy of the same name that the search cannot reach: the folder to add.
        const elsewhere = lib.copies.find((k) => k.soname === r.name || k.links.some((l) => nodePath.posix.basename(l) === r.name));
        const driver = r.family === 'libcuda' || r.family === 'libnvidia-ml';
        const fatal = r.how === 'needed' || r.how === 'preload';
        out.push(
          finding({
            check: this.id,
            severity: fatal || driver ? 'error' : 'warn',
            status: 'fail',
            rootCause: driver ? 'no_device_visible' : 'library_missing',
            message: `${consumerLabel(c)}: ${r.name} ${r.error && !/No such file/.test(r.error) ? `cannot be loaded (${r.error})` : 'is not found'}${r.requestedBy ? ` (needed by ${nodePath.posix.basename(r.requestedBy)})` : ''}`,
            evidence: [
              { text: `${r.name}: searched ${c.resolved.length ? 'RPATH, LD_LIBRARY_PATH, RUNPATH, the ld cache and the default folders' : ''}`, source: 'loader emulation' },
              ...(r.error ? [{ text: r.error, source: 'loader emulation' }] : []),
              ...(elsewhere ? [{ text: `a copy exists at ${elsewhere.links[0] ?? elsewhere.path}, outside the search path`, source: 'inventory' }] : []),
            ],
            affects: { library: r.name, ...(c.framework ? { framework: c.framework } : {}) },
            fix: driver
              ? { text: 'The NVIDIA driver libraries are not installed or not visible (in a container: start it with the NVIDIA runtime, --gpus all).', commands: ['ldconfig -p | grep -E "libcuda|libnvidia-ml"'] }
              : elsewhere
                ? { text: `Add the folder of the existing copy to LD_LIBRARY_PATH, or install the package that provides ${r.name} into the framework's environment.`, commands: [`export LD_LIBRARY_PATH=${shellQuote(nodePath.posix.dirname(elsewhere.links[0] ?? elsewhere.path))}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`] }
                : { text: `Install the package that provides ${r.name} (for pip frameworks: the matching nvidia-* wheel, e.g. pip install 'torch[cuda]' pulls them in).`, commands: [] },
          }),
        );
      }
    }
    return out;
  },
};
