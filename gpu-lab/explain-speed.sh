#!/usr/bin/env bash
# Issue 29, explain's part, on the H200 in about a minute: the short explain beside `node -e 0` (target ≤ node + 40 ms)
# and training logs of 64 MB and 512 MB beside `grep -E -i -c` of the prefilter's words (target ≤ 3× grep and
# ≥ 500 MB/s, peak RSS the same for both sizes), this build and SPEED_COMPARE's in the same rounds
# (bench/explain-speed.mjs), then one CPU profile of the short explain in 5 ms slices (what loads, what runs).
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh &&
#          OUT=${OUT:-/tmp/out} SPEED_COMPARE=.gpu-lab/main-dist/cli.js bash gpu-lab/explain-speed.sh
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
S="$OUT/explain-speed.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
say "node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# SPEED_MB: the two log sizes (the second shows the throughput with the start amortised, and flat memory)
set -- ${SPEED_MB:-64 512}
node bench/explain-speed.mjs --runs "${SPEED_RUNS:-15}" --big-runs 5 --mb "$1" ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} 2>&1 | tee -a "$S"
node bench/explain-speed.mjs --runs 3 --big-runs 3 --mb "$2" ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} 2>&1 | grep -E 'MB|RSS' | tee -a "$S"
LOG=test/fixtures/h200/logs/conv-keep1200-bs64.txt
node dist/cli.js explain "$LOG" --no-machine > /dev/null # the compile cache written, as in the rounds above
node --cpu-prof --cpu-prof-dir="$OUT" --cpu-prof-name=explain-short.cpuprofile dist/cli.js explain "$LOG" --no-machine > /dev/null
node bench/profile-timeline.mjs "$OUT/explain-short.cpuprofile" --slice 5 > "$OUT/explain-short-timeline.txt" 2>&1
say "cpu profile of the short explain: $OUT/explain-short.cpuprofile, its slices in $OUT/explain-short-timeline.txt"
