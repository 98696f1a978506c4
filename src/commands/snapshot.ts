import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';

export const command: Command = {
  name: 'snapshot',
  summary: "print the machine's facts as one JSON document",
  usage: `Usage: gpu-env-doctor snapshot [--root DIR] [--deep] [--python PATH]... [--all-envs] [--timeout SECONDS] > machine.json

Prints every fact the probes gathered (the Snapshot) as JSON. Judge it later, anywhere, with
gpu-env-doctor check --from machine.json; compare two with diff; merge many with fleet.`,
  options: PROBE_OPTIONS,
  async run(ctx, args) {
    const snapshot = await obtainSnapshot(ctx, args);
    ctx.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
    return 0;
  },
};
