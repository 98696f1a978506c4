#!/usr/bin/env bash
# Runs the named proof scripts one after another on the GPU machine, each with its own time limit and output
# folder, and packs every result into $OUT/results.tgz (the device tool brings back only a few files).
#   source .gpu-lab/env.sh && bash gpu-lab/all.sh check libs python
#   source .gpu-lab/env.sh && TRUTH_BUDGET_S=260 bash gpu-lab/all.sh truth-table:330 safety:90 redact:90
# NAME:SECONDS gives a script its own limit (default 150 s).
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
WORK=/tmp/ged-results; rm -rf "$WORK"; mkdir -p "$WORK"
for arg in "$@"; do
  name=${arg%%:*}; limit=150; [ "$name" != "$arg" ] && limit=${arg#*:}
  echo "=================== $name (at most $limit s)"
  mkdir -p "$WORK/$name"
  start=$(date +%s)
  OUT="$WORK/$name" timeout -k 5 "$limit" bash "gpu-lab/$name.sh" > "$WORK/$name/console.txt" 2>&1
  rc=$?
  echo "$name: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$WORK/index.txt"
  tail -25 "$WORK/$name/console.txt"
  pkill -f 'hog.py' 2>/dev/null; true
done
tar -czf "$OUT/results.tgz" -C "$WORK" .
