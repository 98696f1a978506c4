#!/usr/bin/env bash
# What inside check slows its nvidia-smi -q -x (~145–200 ms there, ~112 alone): check with parts of it turned off
# (gpu-lab/anatomy/preload.mjs variants), and a bare Node parent that idles or spins while nvidia-smi runs. The
# shim (first on PATH) writes nvidia-smi's own start and end. 7 rounds each, medians of the shim's -q time.
#   there: source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/check-variants.sh      (about a minute)
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI=${ANATOMY_CLI:-dist/cli.js}
REAL=$(command -v nvidia-smi)
SHIM=$(mktemp -d); LOG="$OUT/smi-shim.txt"
cat > "$SHIM/nvidia-smi" <<SH
#!/bin/bash
s=\$(date +%s%N); "$REAL" "\$@"; rc=\$?; e=\$(date +%s%N); echo "\$(( (e - s) / 100000 )) \$1" >> "$LOG"; exit \$rc
SH
chmod +x "$SHIM/nvidia-smi"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]/10}'; }
variant() {
  local label=$1; shift
  : > "$LOG"
  for i in $(seq 1 7); do env PATH="$SHIM:$PATH" "$@" > /dev/null 2>&1; done
  printf '%-60s nvidia-smi -q median %6s ms   (%s)\n' "$label" "$(grep ' -q$' "$LOG" | cut -d' ' -f1 | median)" \
    "$(grep ' -q$' "$LOG" | awk '{printf "%.0f ", $1/10}')" | tee -a "$OUT/variants.txt"
}
P="--import ./gpu-lab/anatomy/preload.mjs"
variant "nvidia-smi -q -x alone (shim)" nvidia-smi -q -x
variant "check --json" node $P "$CLI" check --json
variant "check --json, other programs not run" env ANATOMY_ONLY_SMI=1 node $P "$CLI" check --json
variant "check --json, no worker thread" env ANATOMY_NO_WORKER=1 node $P "$CLI" check --json
variant "check --json, neither" env ANATOMY_ONLY_SMI=1 ANATOMY_NO_WORKER=1 node $P "$CLI" check --json
variant "check --json, children in our group" env ANATOMY_ATTACHED=1 node $P "$CLI" check --json
variant "node parent idle" node gpu-lab/anatomy/spawn-busy.mjs idle
variant "node parent spinning" node gpu-lab/anatomy/spawn-busy.mjs spin
variant "node parent + 2 spinning workers" node gpu-lab/anatomy/spawn-busy.mjs spin-workers 2
variant "node parent + 6 spinning workers" node gpu-lab/anatomy/spawn-busy.mjs spin-workers 6
variant "check --json --no-color (again, last)" node $P "$CLI" check --json
rm -rf "$SHIM"
