#!/usr/bin/env bash
# Issue 8 proof on the H200: diff (saved vs saved, saved vs this machine), check --format prometheus with a
# leftover holding the GPU, the Slurm prolog/epilog against the live GPU, and fleet over the real snapshots.
#   source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/fleet.sh
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI="node dist/cli.js"
WORK=$(mktemp -d /tmp/ged-fleet-lab.XXXXXX)
HOG=""
cleanup() { [ -n "$HOG" ] && kill "$HOG" 2>/dev/null; pkill -f 'hog.py 1200 90' 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
S="$OUT/summary.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }

$CLI snapshot > "$OUT/snapshot-idle.json"; say "snapshot idle: exit $?"

# An orphaned leftover: the subshell that starts it exits at once, so its parent is gone.
( python3 test/fixtures/h200/hog.py 1200 90 > "$WORK/hog.log" 2>&1 & )
for i in $(seq 60); do grep -q holding "$WORK/hog.log" 2>/dev/null && break; sleep 0.5; done
HOG=$(pgrep -f 'hog.py 1200 90' | head -1)
say "hog pid: ${HOG:-none} ($(head -1 "$WORK/hog.log" 2>/dev/null))"
$CLI snapshot > "$OUT/snapshot-held.json"; say "snapshot held: exit $?"

{
  echo "== diff idle held (noise hidden)"; $CLI diff "$OUT/snapshot-idle.json" "$OUT/snapshot-held.json"; echo "exit=$?"
  echo "== diff idle held --all"; $CLI diff "$OUT/snapshot-idle.json" "$OUT/snapshot-held.json" --all; echo "exit=$?"
  echo "== diff idle vs this machine now (--markdown)"; $CLI diff "$OUT/snapshot-idle.json" --markdown; echo "exit=$?"
} > "$OUT/diff.txt" 2>&1
say "diff: $(grep -c '^exit=' "$OUT/diff.txt") runs, exits $(grep '^exit=' "$OUT/diff.txt" | tr '\n' ' ')"

$CLI check --format prometheus > "$OUT/check-held.prom"; rc=$?
say "check --format prometheus: exit $rc; $(grep -c '^gpu_env_doctor_' "$OUT/check-held.prom") samples; stale: $(grep '^gpu_env_doctor_gpu_memory_stale_bytes' "$OUT/check-held.prom")"

# Slurm scripts against the live GPU: gpu-env-doctor on PATH is this build; scontrol/logger record their arguments.
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nexec node %s/dist/cli.js "$@"\n' "$PWD" > "$WORK/bin/gpu-env-doctor"
printf '#!/bin/sh\necho "scontrol $*" >> %s/calls.log\n' "$WORK" > "$WORK/bin/scontrol"
printf '#!/bin/sh\necho "logger $*" >> %s/calls.log\n' "$WORK" > "$WORK/bin/logger"
chmod +x "$WORK/bin/"*
slurm() { env PATH="$WORK/bin:$PATH" GED_STATE_DIR="$WORK/state" GED_EPILOG_LOG="$WORK/epilog.log" GED_EPILOG_GRACE=0 \
  SLURMD_NODENAME=h200-lab SLURM_JOB_ID=77 SLURM_JOB_GPUS=0 SLURM_JOB_UID="$(id -u)" SLURM_JOB_USER="$(id -un)" "$@"; }
{
  echo "== prolog with the leftover (expect exit 1, naming PID $HOG)"; slurm bash examples/slurm/prolog.sh; echo "exit=$?"
  echo "== prolog warn mode, then task-prolog"; slurm env GED_PROLOG_MODE=warn bash examples/slurm/prolog.sh; echo "exit=$?"; slurm bash examples/slurm/task-prolog.sh
  echo "== epilog (expect the leftover reported)"; slurm bash examples/slurm/epilog.sh; echo "exit=$?"; cat "$WORK/epilog.log" 2>/dev/null
  echo "== calls"; cat "$WORK/calls.log" 2>/dev/null
} > "$OUT/slurm.txt" 2>&1
say "slurm: $(grep '^exit=' "$OUT/slurm.txt" | tr '\n' ' ')"

kill "$HOG" 2>/dev/null; sleep 3; pkill -f 'hog.py 1200 90' 2>/dev/null; HOG=""
{
  echo "== prolog after the leftover ended (expect exit 0)"; slurm bash examples/slurm/prolog.sh; echo "exit=$?"
} >> "$OUT/slurm.txt" 2>&1
say "slurm after kill: $(tail -1 "$OUT/slurm.txt")"

# fleet: the two real snapshots plus renamed copies, one with a planted older driver.
mkdir -p "$WORK/fleet"
for i in $(seq -w 1 20); do
  node -e 'const fs=require("fs");const [src,name,out,old]=process.argv.slice(1);const s=JSON.parse(fs.readFileSync(src,"utf8"));s.host.name=name;if(old==="1"&&s.nvidia.ok){s.nvidia.driverVersion="570.172.08";s.nvidia.cudaVersion="12.8";}fs.writeFileSync(out,JSON.stringify(s));' \
    "$OUT/snapshot-idle.json" "lab-$i" "$WORK/fleet/lab-$i.json" "$([ "$i" = 07 ] && echo 1 || echo 0)"
done
cp "$OUT/snapshot-held.json" "$WORK/fleet/held.json"; echo '{broken' > "$WORK/fleet/broken.json"
$CLI fleet "$WORK/fleet" > "$OUT/fleet.txt" 2>&1; echo "exit=$?" >> "$OUT/fleet.txt"
$CLI fleet "$WORK/fleet" --json > "$OUT/fleet.json" 2>/dev/null
say "fleet: $(tail -1 "$OUT/fleet.txt"); $(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(`${r.machines} machines, ${r.groups.length} configurations, outliers: ${r.outliers.map(o=>o.machine+" "+o.differs.map(d=>d.fact).join(",")).join("; ")}, findings: ${r.findings.map(f=>f.check+"@"+f.count).join(" ")}`)' "$OUT/fleet.json")"
nvidia-smi --query-gpu=memory.used --format=csv,noheader | sed 's/^/memory used at the end: /' | tee -a "$S"
