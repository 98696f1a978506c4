#!/usr/bin/env bash
# Issue 29, the library scan's CPU (inventory + loader emulation, on check's main thread while nvidia-smi works):
# this build against another (LIBS_COMPARE, default .gpu-lab/main-dist/cli.js: a build of main before the pass),
# on the real machine. For each build, LIBS_RUNS (9) runs of `libs --json` alternately under --cpu-prof; from each
# profile scanLibraries' inclusive time (and loaderConfig's, buildInventory's); medians. Both builds' `libs --json`
# must be byte-identical. Also /proc/cpuinfo: its size and CPUs, and what reading the whole of it costs against
# its first 16 KiB (what loaderConfig now reads).
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/libs-scan-cpu.sh
# Under a minute.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
RUNS=${LIBS_RUNS:-9}
BASE=${LIBS_COMPARE:-.gpu-lab/main-dist/cli.js}
S="$OUT/libs-scan-cpu.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }

say "== /proc/cpuinfo: $(wc -c < /proc/cpuinfo) bytes, $(grep -c '^processor' /proc/cpuinfo) CPUs"
python3 - <<'PY' | tee -a "$S"
import time, statistics
def cost(n):
    ts = []
    for _ in range(15):
        t = time.process_time()
        with open('/proc/cpuinfo', 'rb') as f:
            f.read(n)
        ts.append((time.process_time() - t) * 1000)
    return statistics.median(ts)
print(f"read 256 KiB (before): {cost(256*1024):.2f} ms CPU median; read 16 KiB (now): {cost(16*1024):.2f} ms")
PY

builds=("dist/cli.js")
[ -f "$BASE" ] && builds+=("$BASE") || say "no $BASE: this build only"
for b in "${builds[@]}"; do mkdir -p "$OUT/prof-$(echo "$b" | tr '/.' '__')"; done
for i in $(seq 1 "$RUNS"); do
  for b in "${builds[@]}"; do
    tag=$(echo "$b" | tr '/.' '__')
    node --cpu-prof --cpu-prof-dir "$OUT/prof-$tag" "$b" libs --json > "$OUT/libs-$tag.json" 2>/dev/null
  done
done
for b in "${builds[@]}"; do
  tag=$(echo "$b" | tr '/.' '__')
  for f in "$OUT/prof-$tag"/*.cpuprofile; do
    node bench/profile-timeline.mjs "$f" --fn scanLibraries,loaderConfig,buildInventory,emulateConsumer 2>/dev/null \
      | grep -E '^(scanLibraries|loaderConfig|buildInventory|emulateConsumer):'
  done | B="$b" python3 -c '
import os, statistics, sys
v = {}
for line in sys.stdin:
    name, rest = line.split(":", 1)
    ms = rest.split()[0]
    v.setdefault(name, []).append(float(ms) if ms.replace(".", "").isdigit() else 0.0)
b = os.environ["B"]
for k in sorted(v):
    print(f"{b} {k}: median {statistics.median(v[k]):.1f} ms inclusive ({len(v[k])} profiles)")
' | tee -a "$S"
  rm -rf "$OUT/prof-$tag"
done
if [ "${#builds[@]}" -gt 1 ]; then
  if cmp -s "$OUT/libs-dist_cli_js.json" "$OUT/libs-$(echo "$BASE" | tr '/.' '__').json"; then
    say "libs --json: identical between the builds"
  else
    say "libs --json: DIFFERS between the builds"
  fi
fi
