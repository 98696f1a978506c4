#!/usr/bin/env bash
# Where check --json's time goes on the GPU machine: nvidia-smi's own start and end (a shim first on PATH writes
# them) against when check's main thread saw its answer (gpu-lab/anatomy/preload.mjs), and every stretch the main
# thread was busy. 9 rounds each of: plain check, check with the timeline, nvidia-smi -q -x alone.
#   there: source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/check-anatomy.sh      (under a minute)
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI=${ANATOMY_CLI:-dist/cli.js}
REAL=$(command -v nvidia-smi)
SHIM=$(mktemp -d); LOG="$OUT/smi-shim.txt"; : > "$LOG"
cat > "$SHIM/nvidia-smi" <<SH
#!/bin/bash
s=\$(date +%s%N); "$REAL" "\$@"; rc=\$?; e=\$(date +%s%N); echo "\$s \$e \$1" >> "$LOG"; exit \$rc
SH
chmod +x "$SHIM/nvidia-smi"
ms() { local t0 t1; t0=$(date +%s%N); "$@" > /dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }
{
  echo "node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in $(seq 1 9); do echo "plain check --json: $(ms node "$CLI" check --json) ms; nvidia-smi -q -x alone: $(ms nvidia-smi -q -x) ms; node -e 0: $(ms node -e 0) ms"; done
} | tee "$OUT/plain.txt"
for i in $(seq 1 9); do
  : > "$LOG"
  t0=$(date +%s%N)
  PATH="$SHIM:$PATH" ANATOMY_OUT="$OUT/anatomy-$i.json" node --import ./gpu-lab/anatomy/preload.mjs "$CLI" check --json > "$OUT/check-$i.json" 2>/dev/null
  t1=$(date +%s%N)
  echo "$t0 $t1" > "$OUT/wall-$i.txt"; cp "$LOG" "$OUT/shim-$i.txt"
done
node gpu-lab/anatomy/summarize.mjs "$OUT" | tee "$OUT/summary.txt"
rm -rf "$SHIM"
# explain's start, for comparison: Node's floor for an empty CommonJS and ES module file, and fine CPU profiles
# of a short explain (compile cache warm after the first run)
E=$(mktemp -d); : > "$E/empty.cjs"; : > "$E/empty.mjs"
LOG27=test/fixtures/h200/logs/conv-keep1200-bs64.txt
[ -f "$LOG27" ] || LOG27=$(ls test/fixtures/logs/*.log 2>/dev/null | head -1)
{
  for i in $(seq 1 11); do
    echo "node -e 0 $(ms node -e 0) | empty.cjs $(ms node "$E/empty.cjs") | empty.mjs $(ms node "$E/empty.mjs") | explain $(ms node "$CLI" explain "$LOG27" --no-machine) | explain --json $(ms node "$CLI" explain "$LOG27" --no-machine --json)"
  done
} | tee "$OUT/start-floors.txt"
mkdir -p "$OUT/explain-prof"
for i in 1 2 3; do node --cpu-prof --cpu-prof-interval 100 --cpu-prof-dir "$OUT/explain-prof" "$CLI" explain "$LOG27" --no-machine > /dev/null 2>&1; done
rm -rf "$E"
# check --deep: the same timeline (the smoke test's children), 3 rounds after one warm-up
PY=$(command -v python3)
node "$CLI" check --deep --json --python "$PY" > /dev/null 2>&1
for i in 1 2 3; do
  t0=$(date +%s%N)
  ANATOMY_OUT="$OUT/deep-anatomy-$i.json" node --import ./gpu-lab/anatomy/preload.mjs "$CLI" check --deep --json --python "$PY" > "$OUT/deep-$i.json" 2>/dev/null
  t1=$(date +%s%N)
  echo "deep round $i: $(( (t1 - t0) / 1000000 )) ms"; node -e '
const a=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
for (const c of a.children) console.log(`  child ${c.cmd.slice(0,70)}: call ${c.call} exit ${c.exit??"-"} close ${c.close??"-"}`);
console.log(`  main thread busy > 4 ms: ${a.gaps.map(([x,y])=>`${x.toFixed(0)}-${y.toFixed(0)}`).join(", ")}`);' "$OUT/deep-anatomy-$i.json"
done | tee "$OUT/deep.txt"
# the rounds' files in one archive (the device tool brings back only a few files)
( cd "$OUT" && tar -czf rounds.tgz anatomy-*.json check-*.json deep-*.json wall-*.txt shim-*.txt explain-prof 2>/dev/null \
  && rm -rf anatomy-*.json check-*.json deep-*.json deep-anatomy-*.json wall-*.txt shim-*.txt explain-prof )
