#!/usr/bin/env bash
# The wheel on the GPU machine, where no Node.js is installed: builds the single executable from the Node 22 that
# .gpu-lab carries (the same official binary scripts/sea/build.mjs takes from the npm registry), wraps it in the
# wheel, installs it offline into a fresh venv, and runs check, explain, procs and run -- python … through it,
# with no node on PATH, beside `node dist/cli.js` (the npm package's path). Outputs are compared after masking the
# figures that change between two runs (probe times, ages); start-up of both is timed in the same run.
#   here: npm run build; carry .gpu-lab, dist, node_modules/postject
#   there: source .gpu-lab/env.sh && OUT=$OUT bash gpu-lab/wheel.sh
set -u
OUT=${OUT:-/tmp/ged-wheel}; mkdir -p "$OUT"
NODE=$(command -v node) || { echo "no node: source .gpu-lab/env.sh first"; exit 2; }
W=$(mktemp -d /tmp/ged-wheel-XXXXXX)
node scripts/sea/build.mjs --node "$NODE" --out "$W/gpu-env-doctor" 2>&1 | grep -v "string offset" | tee "$OUT/sea-build.txt"
[ -x "$W/gpu-env-doctor" ] || { echo "the single executable was not built"; exit 1; }
python3 scripts/wheel/build_wheel.py --exe "$W/gpu-env-doctor" --arch x64 --out "$W/wheels" | tee -a "$OUT/sea-build.txt"
BASE=$(python3 -c 'import sys; print(sys.base_prefix)')/bin/python3
"$BASE" -m venv "$W/venv" 2>/dev/null || python3 -m venv "$W/venv"
"$W/venv/bin/python" -m pip install -q --no-index --no-deps "$W"/wheels/*.whl 2>&1 | tail -2
ls -la "$W/venv/bin/gpu-env-doctor" | tee -a "$OUT/sea-build.txt"

# no node on PATH for the wheel's runs: the caller's PATH without the folder of .gpu-lab's node, then the fresh
# venv's bin last (its python3 must not take the place of the machine's: check reports the active Python)
NONODE=$(python3 -c 'import os,sys; d=os.path.dirname(sys.argv[1]); print(":".join(p for p in os.environ["PATH"].split(":") if p and os.path.realpath(p) != os.path.realpath(d)))' "$NODE"):$W/venv/bin
echo "node on the wheel's PATH: $(PATH=$NONODE command -v node || echo none)" | tee "$OUT/compare.txt"
LOG=test/fixtures/h200/logs/conv-keep1200-bs64.txt
mask() { sed -E 's/[0-9]+(\.[0-9]+)? ?(ms|s|m|h)\b/N\2/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:.]+Z?( UTC)?/DATE/g; s/(PID|pid)[ :]*[0-9]+/PID N/g'; }
run_both() {
  local name=$1; shift
  NO_COLOR=1 COLUMNS=80 node dist/cli.js "$@" > "$W/node-$name.txt" 2>&1; echo "exit $?" >> "$W/node-$name.txt"
  NO_COLOR=1 COLUMNS=80 PATH=$NONODE gpu-env-doctor "$@" > "$W/whl-$name.txt" 2>&1; echo "exit $?" >> "$W/whl-$name.txt"
  cp "$W/node-$name.txt" "$W/whl-$name.txt" "$OUT/" 2>/dev/null
  if diff <(mask < "$W/node-$name.txt") <(mask < "$W/whl-$name.txt") > "$W/diff-$name.txt"; then echo "same: $name" | tee -a "$OUT/compare.txt"
  else echo "DIFFERENT: $name" | tee -a "$OUT/compare.txt"; head -20 "$W/diff-$name.txt" | tee -a "$OUT/compare.txt"; fi
}
run_both check check
run_both explain explain "$LOG"
run_both procs procs
run_both run run -- python3 -c "import torch; x = torch.ones(1024, 1024, device='cuda'); print(float(x.sum()))"
# python -m and the API, no node
PATH=$NONODE "$W/venv/bin/python" -m gpu_env_doctor --version | tee -a "$OUT/compare.txt"
PATH=$NONODE "$W/venv/bin/python" -c "import gpu_env_doctor as g; d = g.explain(open('$LOG').read(), '--no-machine'); print('api explain:', [c['id'] for c in d['causes']][:3]); c = g.check(); print('api check:', len(c['findings']), 'findings')" | tee -a "$OUT/compare.txt"
# start-up: the executable and node dist/cli.js --version, interleaved, 11 rounds
python3 - "$W/venv/bin/gpu-env-doctor" "$NODE" <<'PY' | tee "$OUT/startup.txt"
import subprocess, sys, time, statistics
exe, node = sys.argv[1], sys.argv[2]
runs = {'single executable --version': [exe, '--version'], 'node dist/cli.js --version': [node, 'dist/cli.js', '--version'], 'node -e 0': [node, '-e', '0']}
t = {k: [] for k in runs}
for _ in range(11):
    for k, argv in runs.items():
        s = time.perf_counter(); subprocess.run(argv, stdout=subprocess.DEVNULL); t[k].append((time.perf_counter() - s) * 1000)
for k, v in t.items():
    print(f"{k:32s} median {statistics.median(v):6.1f} ms  min {min(v):6.1f}  max {max(v):6.1f}")
PY
ls -la "$W/gpu-env-doctor" "$W"/wheels/*.whl | tee -a "$OUT/sea-build.txt"
rm -rf "$W"
