// The root-cause ids of the contract (shared/design/CONTRACT.md). Findings, `explain` and reports use them.
import { t } from '../base/i18n/index.js';
export const ROOT_CAUSES = [
  'gpu_memory_exhausted',
  'memory_held_by_other_process',
  'framework_preallocation',
  'allocator_fragmentation',
  'cudnn_version_mismatch',
  'cuda_toolkit_mismatch',
  'driver_too_old',
  'library_missing',
  'library_conflict',
  'gpu_arch_unsupported',
  'no_device_visible',
  'hardware_or_driver_fault',
  'configuration_invalid',
  'framework_bug',
  'other',
] as const;

export type RootCauseId = (typeof ROOT_CAUSES)[number];

export function isRootCauseId(s: string): s is RootCauseId {
  return (ROOT_CAUSES as readonly string[]).includes(s);
}

/** One-line meaning of each id, for reports, in the chosen language (the catalog's cause.<id>). */
export const ROOT_CAUSE_TITLES = Object.defineProperties(
  {} as Record<RootCauseId, string>,
  Object.fromEntries(ROOT_CAUSES.map((id) => [id, { enumerable: true, get: () => t(`cause.${id}` as const) }])),
);
