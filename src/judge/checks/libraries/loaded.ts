// libs.loaded: what the GPU processes really mapped, and whether the emulation agrees with it. A difference
// is reported (info) so that a wrong emulation shows instead of hiding behind confident output.
import { ok, skip, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { label, librariesOf, needsLibraries, FRAMEWORK_LABEL } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const loadedCheck: Check = {
  id: 'libs.loaded',
  category: 'libraries',
  get title() {
    return t('title.libs.loaded');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const p of lib.processes) {
      if (!p.ok) {
        out.push(
          skip({
            check: this.id,
            message: t('loaded.unreadable', { pid: p.pid, message: p.message ?? t('loaded.mapsUnreadable') }),
            affects: { pid: p.pid },
          }),
        );
        continue;
      }
      const files = lib.loaded.filter((l) => l.pid === p.pid);
      const key = files.filter(
        (f) =>
          f.family === 'libcudnn' || f.family === 'libcudart' || f.family === 'libcuda' || f.family === 'libcublas',
      );
      out.push(
        ok({
          check: this.id,
          message: t(p.framework ? 'loaded.okFw' : 'loaded.ok', {
            pid: p.pid,
            fw: p.framework ? (FRAMEWORK_LABEL[p.framework] ?? p.framework) : '',
            libs: key.map((f) => `${label(f.family)} ${f.version ?? '?'}`).join(t('list.comma')) || t('loaded.none'),
          }),
          evidence: files.map((f) => ({ text: f.path, source: `/proc/${p.pid}/maps` })),
          affects: { pid: p.pid },
        }),
      );
      for (const d of p.differences) {
        out.push(
          ok({
            check: this.id,
            message: t('loaded.differs', {
              pid: p.pid,
              loaded: d.loaded ?? t('loaded.nothing'),
              family: d.family,
              expected: d.expected ?? t('loaded.nothing'),
            }),
            details: t('loaded.differsDetails'),
            evidence: [
              { text: `loaded: ${d.loaded}`, source: `/proc/${p.pid}/maps` },
              { text: `expected: ${d.expected}`, source: 'loader emulation' },
            ],
            affects: { pid: p.pid, library: d.family },
          }),
        );
      }
    }
    return out;
  },
};
