import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';

export const command: Command = {
  name: 'snapshot',
  summary: "print the machine's facts as one JSON document",
  usage: `Usage: gpu-env-doctor snapshot [--root DIR] [--deep] [--python PATH]... [--all-envs] [--timeout SECONDS] [--redact] > machine.json

Prints every fact the probes gathered (the Snapshot) as JSON. Judge it later, anywhere, with
gpu-env-doctor check --from machine.json; compare two with diff; merge many with fleet. --redact replaces
user and host names, home folders, addresses, GPU UUIDs and serials, and secrets (for attaching to an issue).`,
  options: PROBE_OPTIONS,
  async run(ctx, args) {
    const snapshot = await obtainSnapshot(ctx, args);
    ctx.stdout.write(`${JSON.stringify(shown(redactorFor(ctx, args, snapshot), snapshot), null, 2)}\n`);
    return 0;
  },
};
