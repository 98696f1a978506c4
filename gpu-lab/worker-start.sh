#!/usr/bin/env bash
# Issue 29, the library scan's worker thread (its start and the scan's CPU): this build against another
# (WORKER_COMPARE, default .gpu-lab/main-dist: a dist/ built from main before the change), on the real machine.
#   1. libs --json of both builds: byte-identical.
#   2. check --json, WORKER_RUNS (9) rounds interleaved (gpu-lab/worker-check.mjs): wall, the libraries probe's
#      "read in a worker thread" and its ms (the worker's start to its answer); findings and libraries section
#      (durationMs aside) identical in every round of both builds.
#   3. new Worker → the scan's answer in a fresh process, 15 rounds per build (gpu-lab/worker-start.mjs): wall,
#      CPU, the Node modules the worker loaded; the posted sections identical.
#   4. the scan on the main thread (libs --json under --cpu-prof, gpu-lab/libs-scan-cpu.sh): scanLibraries,
#      buildInventory, emulateConsumer inclusive ms, medians.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/worker-start.sh
# About a minute.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
BASE=${WORKER_COMPARE:-.gpu-lab/main-dist}
RUNS=${WORKER_RUNS:-9}
S="$OUT/summary.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
if [ ! -f "$BASE/cli.js" ]; then say "no $BASE/cli.js: copy a build of main there first"; exit 2; fi
say "== $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); this: dist, base: $BASE"
say "== base's worker file: $(ls "$BASE" | grep -E '^libraries-worker' | tr '\n' ' ')"

node dist/cli.js libs --json > "$OUT/libs-this.json" 2>/dev/null
node "$BASE/cli.js" libs --json > "$OUT/libs-base.json" 2>/dev/null
if cmp -s "$OUT/libs-this.json" "$OUT/libs-base.json"; then
  say "== libs --json: identical ($(wc -c < "$OUT/libs-this.json") bytes)"
else
  say "== libs --json: DIFFERS"; diff "$OUT/libs-base.json" "$OUT/libs-this.json" | head -40 | tee -a "$S"
fi

say "== check --json, $RUNS rounds each, interleaved"
node gpu-lab/worker-check.mjs --runs "$RUNS" dist/cli.js "$BASE/cli.js" 2>&1 | tee -a "$S"

say "== the scan's worker alone: new Worker -> its answer"
node gpu-lab/worker-start.mjs --runs 15 dist "$BASE" 2>&1 | tee -a "$S"

say "== the scan on the main thread (libs --json, --cpu-prof)"
OUT="$OUT/scan" LIBS_RUNS=7 LIBS_COMPARE="$BASE/cli.js" bash gpu-lab/libs-scan-cpu.sh 2>&1 \
  | grep -v cpuinfo | tee -a "$S"
