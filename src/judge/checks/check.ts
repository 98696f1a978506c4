// The check interface. A check is a pure function over the Snapshot: one file each, a stable id.
import type { Finding } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { t } from '../../base/i18n/index.js';

/** The areas of the report: one line each in the terminal summary, in this order. */
export const CATEGORIES = {
  get gpu() {
    return t('category.gpu');
  },
  get memory() {
    return t('category.memory');
  },
  get libraries() {
    return t('category.libraries');
  },
  get python() {
    return t('category.python');
  },
  get versions() {
    return t('category.versions');
  },
  get env() {
    return t('category.env');
  },
  get system() {
    return t('category.system');
  },
};
export type Category = keyof typeof CATEGORIES;

export interface Check {
  /** stable id, e.g. "gpu.driver": scripts and `--json` consumers key on it */
  id: string;
  category: Category;
  title: string;
  /** Does the check apply to this snapshot? A string is the reason it does not (shown as skip). */
  applies?(s: Snapshot): true | string;
  /** Findings; an empty list means "ok". Must not throw, but if it does the run records a crash. */
  evaluate(s: Snapshot): Finding[];
}

/** A finding that only says "<title>: ok" (the runner's line for a check with nothing to say), in any language. */
export function isBareOk(f: { bare?: true }): boolean {
  return f.bare === true;
}
