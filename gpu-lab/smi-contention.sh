#!/usr/bin/env bash
# Why nvidia-smi -q -x answers later inside `check` (~160 ms after its spawn) than alone (~120 ms): each thing
# check does beside it, alone and together, while nvidia-smi -q -x runs (15 rounds, medians). No setting changed.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/smi-contention.sh
# About a minute.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
S="$OUT/smi-contention.txt"; : > "$S"
TORCH_SO=$(python3 -c 'import importlib.util,os;p=importlib.util.find_spec("torch").submodule_search_locations[0];print(os.path.join(p,"lib","libtorch_cuda.so"))' 2>/dev/null)
echo "libtorch_cuda.so: ${TORCH_SO:-none} ($(stat -c %s "$TORCH_SO" 2>/dev/null) bytes)" | tee -a "$S"
ms() { local t0 t1; t0=$(date +%s%N); "$@" > /dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }
# beside: a command run in the background during each nvidia-smi
measure() {
  local label=$1; shift
  local xs=() i pid
  for i in $(seq 1 15); do
    if [ $# -gt 0 ]; then "$@" > /dev/null 2>&1 & pid=$!; fi
    xs+=("$(ms nvidia-smi -q -x)")
    [ $# -gt 0 ] && wait "$pid" 2>/dev/null
  done
  printf '%-58s median %4s ms  (%s)\n' "$label" "$(printf '%s\n' "${xs[@]}" | sort -n | sed -n 8p)" "${xs[*]}" | tee -a "$S"
}
measure "nvidia-smi -q -x alone"
measure "beside nvidia-smi --query-gpu (check's second call)" nvidia-smi --query-gpu=index,uuid,memory.used --format=csv
measure "beside dmesg (the kernel-log probe)" dmesg
[ -n "$TORCH_SO" ] && measure "beside reading libtorch_cuda.so (the fatbinary worker)" cat "$TORCH_SO"
measure "beside a busy CPU thread for 0.2 s (node's main thread)" timeout 0.2 sh -c 'while :; do :; done'
measure "beside python3 -c pass (an interpreter start)" python3 -c pass
measure "beside check --json itself (a second check)" node dist/cli.js check --json
echo "the check's own nvidia-smi time is in its --json probes[] (nvidia-smi), for comparison:" | tee -a "$S"
for i in 1 2 3; do node dist/cli.js check --json 2>/dev/null | node -e '
let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const p=(j.snapshot?.probes??j.probes??[]).find(x=>x.id==="nvidia-smi");console.log("  check probes nvidia-smi:",p?p.durationMs:"?","ms")})' | tee -a "$S"; done
