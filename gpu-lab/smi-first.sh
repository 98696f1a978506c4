#!/usr/bin/env bash
# Issue 29: check with nvidia-smi started by dist/cli.js before the program loads (src/cli/early.ts), on the GPU
# machine, against a base build (SMI_FIRST_COMPARE, default .gpu-lab/main-dist/cli.js) in the same rounds.
# 1. SMI_FIRST_RUNS (9) interleaved rounds of node -e 0, nvidia-smi -q -x, check --json (this build), check --json
#    (base): medians, and the target node + nvidia-smi + 50 ms.
# 2. bench/smi-timeline.mjs --real: when nvidia-smi -q -x was spawned, when it exited, when check ended (ms after the
#    process's start), and the main thread's CPU after the answer, per build (15 interleaved rounds).
# 3. The same report: check --json of both builds, the findings and the snapshot (times, pids and the probes' order
#    aside) compared; nvidia-smi called once per kind (a counting shim first on PATH, in a run of its own).
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/smi-first.sh
# About a minute. Results in $OUT/smi-first.txt and $OUT/smi-first.tgz (every run's output).
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
RUNS=${SMI_FIRST_RUNS:-9}
BASE=${SMI_FIRST_COMPARE:-.gpu-lab/main-dist/cli.js}
W=$(mktemp -d /tmp/ged-smi-first.XXXXXX)
trap 'rm -rf "$W"' EXIT
S="$OUT/smi-first.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
say "node $(node --version), cores $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), base $BASE"
# the compile cache filled and the scan's answer kept, for both builds
# each build its own cache folder: the kept scan is keyed by the build, so one shared file would never hit
new() { XDG_CACHE_HOME="$W/cache-new" node dist/cli.js "$@"; }
base() { XDG_CACHE_HOME="$W/cache-base" node "$BASE" "$@"; }
new check --json > /dev/null 2>&1
base check --json > /dev/null 2>&1
: > "$W/times.txt"
for i in $(seq 1 "$RUNS"); do
  n=$(ms node -e 0); smi=$(ms nvidia-smi -q -x)
  s=$(date +%s%N); new check --json > "$W/new-$i.json"; e=$(date +%s%N); new=$(( (e - s) / 1000000 ))
  s=$(date +%s%N); base check --json > "$W/base-$i.json"; e=$(date +%s%N); base=$(( (e - s) / 1000000 ))
  say "round $i: node -e 0 $n, nvidia-smi -q -x $smi, check $new, base $base ms"
  echo "$n $smi $new $base" >> "$W/times.txt"
done
python3 - "$W/times.txt" <<'PY' | tee -a "$S"
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
med = [statistics.median(c) for c in zip(*rows)]
mins = [min(c) for c in zip(*rows)]
for n, m, lo in zip(['node -e 0', 'nvidia-smi -q -x', 'check', 'check base'], med, mins):
    print(f"median {n}: {m:.0f} ms (min {lo})")
target = med[0] + med[1] + 50
print(f"target node + nvidia-smi + 50: {target:.0f} ms; check - target: {med[2] - target:+.0f}; base - target: {med[3] - target:+.0f}")
PY
# whether each round's library scan came from the build's kept answer (the probe's message says so) or a worker
for kind in new base; do
  say "libraries probe ($kind): $(for f in "$W/$kind"-*.json; do node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1]));const p=o.snapshot.probes.find((p)=>p.id==="libraries");console.log(p.message ?? "(none)")' "$f"; done | sort | uniq -c | sort -rn | head -3 | tr '\n' ';')"
done
say "== the timeline (bench/smi-timeline.mjs --real, ms after the process's start)"
node bench/smi-timeline.mjs --real --runs 15 dist/cli.js "$BASE" 2>&1 | tee -a "$S"
say "== the same report"
node - "$W" "$RUNS" <<'JS' | tee -a "$S"
const fs = require('fs');
const [dir, runs] = [process.argv[2], Number(process.argv[3])];
const stable = (file) =>
  JSON.parse(fs.readFileSync(file, 'utf8'), (k, v) =>
    k === 'durationMs' || k === 'collectedAt' || k === 'pid' || k === 'doneAt' || k === 'uptimeSeconds' || k === 'message' && typeof v === 'string' && / ms\b/.test(v)
      ? 0
      : k === 'probes' && Array.isArray(v)
        ? [...v].sort((a, b) => a.id.localeCompare(b.id))
        : v,
  );
let findings = 0, snapshots = 0;
for (let i = 1; i <= runs; i++) {
  const a = stable(`${dir}/new-${i}.json`), b = stable(`${dir}/base-${i}.json`);
  if (JSON.stringify(a.findings) === JSON.stringify(b.findings)) findings++;
  if (JSON.stringify(a.snapshot) === JSON.stringify(b.snapshot)) snapshots++;
}
console.log(`findings: the same in both builds in ${findings} of ${runs} rounds`);
console.log(`snapshot (times, pids, uptime, the probes' order aside): the same in ${snapshots} of ${runs} rounds`);
const one = JSON.parse(fs.readFileSync(`${dir}/new-1.json`, 'utf8'));
console.log(`nvidia: ok ${one.snapshot.nvidia.ok}, ${one.snapshot.nvidia.gpus?.length ?? 0} GPU(s); probe ${JSON.stringify(one.snapshot.probes.find((p) => p.id === 'nvidia-smi'))}`);
JS
# nvidia-smi's calls counted by a shim first on PATH (its own runs: the shim's shell costs time)
REAL=$(command -v nvidia-smi)
mkdir -p "$W/shim"
cat > "$W/shim/nvidia-smi" <<EOF
#!/bin/sh
echo "\$1" >> "$W/calls"
exec "$REAL" "\$@"
EOF
chmod +x "$W/shim/nvidia-smi"
for kind in new base; do
  : > "$W/calls"
  cli=dist/cli.js; [ "$kind" = base ] && cli=$BASE
  PATH="$W/shim:$PATH" node "$cli" check --json > "$W/shim-$kind.json" 2>&1
  say "nvidia-smi calls ($kind): $(tr '\n' ' ' < "$W/calls")"
done
tar -czf "$OUT/smi-first.tgz" -C "$W" .
