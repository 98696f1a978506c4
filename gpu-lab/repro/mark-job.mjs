#!/usr/bin/env node
// The snapshot run.sh takes at a job's failure, with the job's processes marked as the job (isSelfOrAncestor), as
// `gpu-env-doctor run` marks them in the snapshot it takes at the failure (src/act/run/mark-job.ts): the job's own
// memory is then not read as another process's, and what the job's process has mapped still shows. The job is the
// PID the failed process wrote (gpu-lab/repro/hook/sitecustomize.py) and its children.
// Run: node gpu-lab/repro/mark-job.mjs SNAPSHOT.json PID   (rewrites the file; exit 2 on bad input)
import * as fs from 'node:fs';

const [file, pidText] = process.argv.slice(2);
const pid = Number(pidText);
if (!file || !Number.isInteger(pid) || pid <= 0) {
  console.error('usage: node gpu-lab/repro/mark-job.mjs SNAPSHOT.json PID');
  process.exit(2);
}
let snap;
try {
  snap = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`mark-job: cannot read ${file}: ${e.message.split('\n')[0]}`);
  process.exit(2);
}
const list = snap?.processes?.list;
if (!Array.isArray(list)) process.exit(0); // no process facts (the probe failed): nothing to mark
// a DataLoader worker or a launcher's rank is a child of the job's process
for (const p of list) if (p.pid === pid || p.ppid === pid || p.nvidiaSmiPid === pid) p.isSelfOrAncestor = true;
fs.writeFileSync(file, `${JSON.stringify(snap, null, 2)}\n`);
