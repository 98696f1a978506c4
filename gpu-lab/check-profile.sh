#!/usr/bin/env bash
# Issue 29: where `check --json`'s time goes on the GPU machine, thread by thread. CPU profiles (100 µs) of the
# main thread and of the library scan's worker over PROFILE_RUNS (5) runs, each run's output (its probe timings),
# plain runs beside the floors (node -e 0, nvidia-smi -q -x), a bare worker thread's start (new Worker → its first
# message), syscall counts when strace is there, and PROFILE_EXPLAIN (3) profiles of a short explain.
# Packed into $OUT/profiles.tgz; read with bench/profile-timeline.mjs (the main thread) and bench/cpuprofile-top.mjs.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/check-profile.sh
# About 30 s. PROFILE_CLI: another build's cli.js.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
RUNS=${PROFILE_RUNS:-5}
CLI=${PROFILE_CLI:-dist/cli.js}
W=$(mktemp -d /tmp/ged-profile.XXXXXX)
trap 'rm -rf "$W"' EXIT
S="$W/summary.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
say "node $(node --version), cores $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), cli $CLI"
node "$CLI" check --json > /dev/null 2>&1 # the compile cache filled, as on a second run
for i in $(seq 1 "$RUNS"); do
  say "round $i: node -e 0 $(ms node -e 0) ms, nvidia-smi -q -x $(ms nvidia-smi -q -x) ms," \
    "check --json $(ms node "$CLI" check --json) ms"
done
for i in $(seq 1 "$RUNS"); do
  mkdir -p "$W/check-$i"
  node --cpu-prof --cpu-prof-interval 100 --cpu-prof-dir "$W/check-$i" "$CLI" check --json > "$W/check-$i/out.json"
  node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(JSON.stringify(o.snapshot.probes))' \
    "$W/check-$i/out.json" | tee -a "$S"
done
say "== a bare worker thread: new Worker to its first message (10 in a row), ms"
node -e '
const { Worker } = require("node:worker_threads");
(async () => {
  const out = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const w = new Worker("require(\"node:worker_threads\").parentPort.postMessage(1)", { eval: true });
    await new Promise((r) => w.once("message", r));
    out.push((performance.now() - t).toFixed(1));
    await w.terminate();
  }
  console.log(out.join(" "));
})();' | tee -a "$S"
if command -v strace > /dev/null; then
  strace -f -c -o "$W/strace-check.txt" node "$CLI" check --json > /dev/null 2>&1
else
  say "no strace here"
fi
LOG="$W/short.log"
printf '%s\n' 'Traceback (most recent call last):' '  File "train.py", line 12, in <module>' \
  '    out = model(x)' 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total' \
  'capacity of 139.81 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 138.74 GiB' \
  'memory in use. Of the allocated memory 136.20 GiB is allocated by PyTorch, and 1.90 GiB is reserved by PyTorch' \
  'but unallocated.' > "$LOG"
for i in $(seq 1 "${PROFILE_EXPLAIN:-3}"); do
  mkdir -p "$W/explain-$i"
  say "explain short: $(ms node "$CLI" explain "$LOG" --no-machine) ms plain"
  node --cpu-prof --cpu-prof-interval 100 --cpu-prof-dir "$W/explain-$i" "$CLI" explain "$LOG" --no-machine > /dev/null
done
tar -czf "$OUT/profiles.tgz" -C "$W" .
