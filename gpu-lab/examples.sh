#!/usr/bin/env bash
# Real H200 snapshots for examples/ and the README: the machine with an orphaned holder whose orphanhood the
# tool can prove (started from a subshell that exits at once, so PID 1 adopts it while its session stays this
# script's: the same staging as the truth table's and safety.sh's orphan), taken with `gpu-env-doctor snapshot`.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=/some/dir bash gpu-lab/examples.sh
# Evidence in $OUT: h200-orphan-held.json (the snapshot), check.txt (check --from it at 80 columns), summary.txt.
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
PY=${PY:-/opt/torch/.venv/bin/python3}; [ -x "$PY" ] || PY=python3
WORK=$(mktemp -d)
HOG=""
cleanup() { [ -n "$HOG" ] && kill -KILL "$HOG" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
( "$PY" test/fixtures/h200/hog.py 1200 120 > "$WORK/hog.log" 2>&1 & echo $! > "$WORK/hog.pid" )
HOG=$(cat "$WORK/hog.pid")
for _ in $(seq 1 120); do grep -q "hog holding" "$WORK/hog.log" && break; sleep 0.5; done
sleep 2 # past the CPU sample of its start, so it reads as the idle leftover it is
node dist/cli.js snapshot > "$OUT/h200-orphan-held.json"
echo "snapshot: exit $?, hog PID $HOG: $(head -1 "$WORK/hog.log")" | tee "$OUT/summary.txt"
COLUMNS=80 node dist/cli.js check --from "$OUT/h200-orphan-held.json" > "$OUT/check.txt"
echo "check --from it: exit $?" | tee -a "$OUT/summary.txt"
head -40 "$OUT/check.txt"
