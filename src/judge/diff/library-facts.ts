// Facts from the snapshot's `libraries` section (src/gather/snapshot/schema-libraries.ts; the `libs --json` shape of
// CONTRACT.md): which file of each CUDA library a framework would load, and every copy on disk. Tolerant reads: a
// snapshot without the section has these facts "not collected".
import { t } from '../../base/i18n/index.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { FactDef, FactValues, Impact } from './facts.js';
import { primaryEnv } from './python-facts.js';
import { arr, bool, section, text, type Obj } from './section.js';

/** The section, when its probe ran (ok: false means the inventory itself failed: nothing to compare). */
function collected(s: Snapshot): Obj | undefined {
  const libs = section(s, 'libraries');
  return libs && bool(libs, 'ok') !== false ? libs : undefined;
}

/** "libcudnn.so.9" → "libcudnn"; "libcudnn_ops.so.9" → "libcudnn_ops" */
export function libStem(name: string): string {
  return name.replace(/\.so(\..*)?$/, '');
}

/** The libraries whose copy decides CUDA/cuDNN compatibility. */
const CRITICAL_LIBS = /^lib(cudnn|cudart|cublas|cublasLt|cuda|nvrtc|nvJitLink)$/;
const libImpact = (sub: string): Impact =>
  CRITICAL_LIBS.test(libStem(sub.split(' ').pop() ?? '')) ? 'critical' : 'high';

export const LIBRARY_FACTS: FactDef[] = [
  {
    id: 'loads',
    get label() {
      return t('diff.fact.loads.label');
    },
    impact: 'high',
    key: false,
    get why() {
      return t('diff.fact.loads.why');
    },
    read: (s) => {
      const libs = collected(s);
      if (!libs) return undefined;
      const out: FactValues = {};
      // The consumers of the environment a job runs in first: with several venvs, that one's torch is "the" torch.
      const env = primaryEnv(s);
      const prefix = env ? text(env, 'prefix') : null;
      const consumers = arr(libs, 'consumers');
      const ordered = [
        ...consumers.filter((c) => prefix !== null && text(c, 'environment') === prefix),
        ...consumers.filter((c) => prefix === null || text(c, 'environment') !== prefix),
      ];
      for (const c of ordered) {
        // Only the frameworks: other consumers (libs --elf FILE) are one-off questions, not machine facts.
        const fw = text(c, 'framework');
        if (!fw) continue;
        for (const r of arr(c, 'resolved')) {
          const name = text(r, 'name');
          if (!name) continue;
          const sub = `${fw} ${name}`;
          if (out[sub] !== undefined) continue;
          const path = text(r, 'path');
          out[sub] = path === null ? 'not found' : `${text(r, 'version') ?? '?'} (${text(r, 'via') ?? '?'}: ${path})`;
        }
      }
      return out;
    },
    impactOf: libImpact,
  },
  {
    id: 'copies',
    get label() {
      return t('diff.fact.copies.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.copies.why');
    },
    read: (s) => {
      const libs = collected(s);
      if (!libs) return undefined;
      const by = new Map<string, string[]>();
      for (const c of arr(libs, 'copies')) {
        const name = text(c, 'name');
        if (!name) continue;
        const stem = libStem(name);
        by.set(stem, [...(by.get(stem) ?? []), `${text(c, 'version') ?? '?'} ${text(c, 'origin') ?? '?'}`]);
      }
      const out: FactValues = {};
      for (const [stem, list] of by) out[stem] = [...new Set(list)].sort().join(', ');
      return out;
    },
  },
];
