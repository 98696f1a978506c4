// Parses `nvidia-smi -L`, for what the XML lacks: the MIG devices' UUIDs and profiles. Pure.
//   GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-…)
//     MIG 1g.5gb      Device  0: (UUID: MIG-c6d4f1ef-…)            driver 470 and later
//     MIG Device 0: (UUID: MIG-GPU-b8ea3855-…/1/0)                 drivers before 470: GPU UUID, GI, CI

export interface ListedMig {
  index: number;
  profile: string | null;
  uuid: string;
  /** from the old form's "/<gi>/<ci>" */
  gpuInstanceId: number | null;
  computeInstanceId: number | null;
}

/** GPU UUID → its MIG devices, in the order listed. */
export function parseSmiList(text: string): Map<string, ListedMig[]> {
  const out = new Map<string, ListedMig[]>();
  let current: ListedMig[] | null = null;
  for (const line of text.split('\n')) {
    const gpu = /^GPU \d+: .*\(UUID: (GPU-[0-9a-fA-F-]+)\)\s*$/.exec(line.trim());
    if (gpu) {
      current = [];
      out.set(gpu[1]!.toLowerCase(), current);
      continue;
    }
    const mig = /^MIG(?:\s+(\S+))?\s+Device\s+(\d+):\s+\(UUID:\s+(MIG-[^)\s]+)\)\s*$/.exec(line.trim());
    if (!mig || current === null) continue;
    const old = /^MIG-GPU-[0-9a-fA-F-]+\/(\d+)\/(\d+)$/.exec(mig[3]!);
    current.push({
      index: Number(mig[2]),
      profile: mig[1] && mig[1] !== 'Device' ? mig[1] : null,
      uuid: mig[3]!,
      gpuInstanceId: old ? Number(old[1]) : null,
      computeInstanceId: old ? Number(old[2]) : null,
    });
  }
  return out;
}
