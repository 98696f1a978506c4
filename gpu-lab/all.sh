#!/usr/bin/env bash
# Runs the named proof scripts one after another on the GPU machine, each with its own time limit and output
# folder, and packs every result into $OUT/results.tgz (the device tool brings back only a few files).
#   source .gpu-lab/env.sh && bash gpu-lab/all.sh check libs python
set -u
OUT=${OUT:-/tmp/ged-out}
WORK=/tmp/ged-results; rm -rf "$WORK"; mkdir -p "$WORK"
for name in "$@"; do
  echo "=================== $name"
  mkdir -p "$WORK/$name"
  start=$(date +%s)
  OUT="$WORK/$name" timeout -k 5 150 bash "gpu-lab/$name.sh" > "$WORK/$name/console.txt" 2>&1
  rc=$?
  echo "$name: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$WORK/index.txt"
  tail -25 "$WORK/$name/console.txt"
  pkill -f 'hog.py' 2>/dev/null; true
done
tar -czf "$OUT/results.tgz" -C "$WORK" .
