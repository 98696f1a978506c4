// The root-cause ids of the contract (shared/design/CONTRACT.md). Findings, `explain` and reports use them.
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
  'framework_bug',
  'other',
] as const;

export type RootCauseId = (typeof ROOT_CAUSES)[number];

export function isRootCauseId(s: string): s is RootCauseId {
  return (ROOT_CAUSES as readonly string[]).includes(s);
}

/** One-line meaning of each id, for reports. */
export const ROOT_CAUSE_TITLES: Record<RootCauseId, string> = {
  gpu_memory_exhausted: 'The job itself does not fit in GPU memory',
  memory_held_by_other_process: 'Another process holds the GPU memory',
  framework_preallocation: 'A framework reserved most of the memory up front',
  allocator_fragmentation: "PyTorch's cached memory is fragmented",
  cudnn_version_mismatch: 'The cuDNN that loads does not match the framework build',
  cuda_toolkit_mismatch: 'The CUDA runtime does not match the framework build',
  driver_too_old: 'The NVIDIA driver is too old for the CUDA in use',
  library_missing: 'A needed shared library is missing',
  library_conflict: 'Two copies of a library compete',
  gpu_arch_unsupported: "The build has no code for this GPU's architecture",
  no_device_visible: 'No GPU is visible to the process',
  hardware_or_driver_fault: 'A hardware or driver fault',
  framework_bug: 'A defect in the framework',
  other: 'Another cause',
};
