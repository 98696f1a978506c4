#!/usr/bin/env bash
# CPU profile of `snapshot` on the GPU machine (where it is slowest): open the .cpuprofile in Chrome DevTools,
# or summarise it with bench/cpuprofile-top.mjs.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
node --cpu-prof --cpu-prof-dir="$OUT" --cpu-prof-name=snapshot.cpuprofile dist/cli.js snapshot > "$OUT/snapshot.json"
node -e "const s=require('$OUT/snapshot.json');console.log(JSON.stringify(s.probes))"
for i in 1 2 3; do s=$(date +%s%N); node dist/cli.js check --json > /dev/null; e=$(date +%s%N); echo "check --json: $(( (e-s)/1000000 )) ms"; done
