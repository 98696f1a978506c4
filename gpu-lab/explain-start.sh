#!/usr/bin/env bash
# Issue 29, explain's start on the H200 (under a minute): the short explain (27-line log, --no-machine) beside
# `node -e 0` and an empty .mjs, this build and SPEED_COMPARE's in the same interleaved rounds, wall and CPU ms
# (bench/explain-start.mjs); then 3 CPU profiles per build (100 µs): the time to the engine's first line (module
# loading, main, argument parsing), the engine, diagnose, the terminal view, GC; and the files of code loaded
# (this build: dist/cli.js and dist/explain-tree/start.js, explain's own tree); how many of that file's functions the
# build compiles with it, and whether it is ASCII; how many patterns are compiled to bytecode and how many straight to
# machine code; explain's English messages apart; explain's first pass split over threads (bench/explain-parallel.mjs).
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build &&
#          node bench/explain-parallel.mjs --prepare .gpu-lab/prefilter
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh &&
#          OUT=${OUT:-/tmp/out} SPEED_COMPARE=.gpu-lab/main-dist/cli.js bash gpu-lab/explain-start.sh
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
S="$OUT/explain-start.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
say "node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
node bench/explain-start.mjs --runs "${SPEED_RUNS:-31}" ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} 2>&1 | tee -a "$S"
LOG=test/fixtures/h200/logs/conv-keep1200-bs64.txt
# each build its own cache folder (explain's code cache is one file there: src/cli/explain-load.ts)
cache_of() { echo "$OUT/cache-$(basename "$(dirname "$1")")"; }
for cli in dist/cli.js ${SPEED_COMPARE:-}; do
  tag=$(basename "$(dirname "$cli")")
  export XDG_CACHE_HOME; XDG_CACHE_HOME=$(cache_of "$cli")
  node "$cli" explain "$LOG" --no-machine > /dev/null # the compile cache written, as in the rounds above
  for i in 1 2 3; do
    node --cpu-prof --cpu-prof-interval 100 --cpu-prof-dir="$OUT" --cpu-prof-name="start-$tag-$i.cpuprofile" \
      "$cli" explain "$LOG" --no-machine > /dev/null
    say "$tag run $i: $(node bench/profile-timeline.mjs "$OUT/start-$tag-$i.cpuprofile" \
      --fn getModuleJobForImport,parseCommandArgs,explainStream,diagnose,renderExplainTerminal,'(garbage collector)' | grep -E 'inclusive|not sampled' \
      | tr '\n' ';')"
  done
  node bench/profile-timeline.mjs "$OUT/start-$tag-1.cpuprofile" --slice 2 > "$OUT/start-$tag-timeline.txt" 2>&1
done
say "profiles and their 2 ms slices: $OUT/start-*.cpuprofile, $OUT/start-*-timeline.txt"
# the build's rewrite of explain's start file (scripts/lib/eager-functions.mjs): functions moved, in ASCII or not
for cli in dist/cli.js ${SPEED_COMPARE:-}; do
  f="$(dirname "$cli")/explain-tree/start.js"
  say "$f: $(grep -c '^var [A-Za-z0-9_$]* = (function ' "$f") functions compiled with the file;" \
    "$(LC_ALL=C grep -c -P '[^\x00-\x7f]' "$f") lines not ASCII"
done
# the patterns a short explain compiles (V8's trace, one run per build; the flag keeps the compile cache out of that
# run, which changes no pattern): to bytecode (then again to machine code at a second run), or to machine code at
# once (src/base/native-regex.ts); and the English messages explain's tree reads first
for cli in dist/cli.js ${SPEED_COMPARE:-}; do
  XDG_CACHE_HOME=$(cache_of "$cli")-trace
  say "$cli: $(node --trace-regexp-tier-up "$cli" explain "$LOG" --no-machine 2>/dev/null |
    awk '/bytecode size/ { b++ } /native code size/ { n++ }
      END { print b + 0 " patterns compiled to bytecode, " n + 0 " to machine code" }')"
  h="$(dirname "$cli")/i18n/en-explain.json"
  count='console.log(Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))).length)'
  say "$h: $([ -f "$h" ] && echo "$(node -e "$count" "$h") messages" || echo absent)"
done
# explain's first pass over a 64 MB log split over 1, 2, 4, 8 threads, beside grep and the whole explain
# (bench/explain-parallel.mjs, an experiment; its bundles prepared here: ~30 s)
if [ -f .gpu-lab/prefilter/scan.mjs ]; then
  node bench/explain-parallel.mjs --entry .gpu-lab/prefilter --mb 64 --runs "${PARALLEL_RUNS:-7}" --threads 1,2,4,8 \
    2>&1 | tee -a "$S"
else
  say "no .gpu-lab/prefilter (here: node bench/explain-parallel.mjs --prepare .gpu-lab/prefilter)"
fi
