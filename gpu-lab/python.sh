#!/usr/bin/env bash
# GPU-machine proof for issue 4 (Python environments and frameworks, seen from outside the interpreter).
# Run from the repo root on the H200 machine after `source .gpu-lab/env.sh` and a build of dist/cli.js:
#   OUT=/some/dir bash gpu-lab/python.sh
# 1. `check --deep` against /opt/torch/.venv at rest: expects torch 2.11 cu130, JAX 0.11, cuDNN 9.19,
#    sm_90 in torch's arch list, the convolution passing in both frameworks.
# 2. the same while test/fixtures/h200/hog.py holds all GPU memory but HOG_KEEP_MIB (700) MiB, room for a CUDA context but not for cuDNN: expects "memory", not cuDNN.
# Also saves the raw probe output of each framework (idle and under the hog) for replay tests, and the
# timings of check, check --deep and python -m torch.utils.collect_env.
# Writes 7 files to $OUT, kills every process it starts (the hog, on any exit), finishes in ~1 minute.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
mkdir -p "$OUT"
CLI="node dist/cli.js"
PY=${GED_PYTHON:-/opt/torch/.venv/bin/python3}   # override only to dry-run elsewhere
PREFIX=$(dirname "$(dirname "$PY")")
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }

HOG=""
cleanup() { if [ -n "$HOG" ]; then kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; fi; }
trap cleanup EXIT INT TERM

# The probe exactly as check --deep runs it (python -c SOURCE FRAMEWORK --conv), stdout then stderr.
raw_probe() { # $1 = label
  for fw in torch jax; do
    echo "=== $fw $1 stdout"
    "$PY" -c "$(cat src/gather/python/assets/probe.py)" "$fw" --conv --mode configured 2> /tmp/ged-probe-stderr.txt
    echo "=== $fw $1 exit $?"
    echo "=== $fw $1 stderr (last 40 lines)"
    tail -40 /tmp/ged-probe-stderr.txt
  done
}

# ---- 1. at rest
t0=$(ms); $CLI check --json > /dev/null 2>&1; t1=$(ms)
say "check --json (no --deep): $((t1 - t0)) ms"
t0=$(ms); $CLI check --deep --json --python "$PY" > "$OUT/check-deep-idle.json" 2> /tmp/ged-check-stderr.txt; rc=$?; t1=$(ms)
say "check --deep --json: $((t1 - t0)) ms, exit $rc"
$CLI check --from "$OUT/check-deep-idle.json" -v --no-color > "$OUT/check-deep-idle.txt" 2>&1
raw_probe idle > "$OUT/probe-idle.txt" 2>&1
if $PY -c 'import torch' 2>/dev/null; then
  t0=$(ms); $PY -m torch.utils.collect_env > /dev/null 2>&1; t1=$(ms)
  say "python -m torch.utils.collect_env: $((t1 - t0)) ms"
fi

# Expectations, read from the JSON (python3 here is the venv's; the stdlib is enough).
python3 - "$OUT/check-deep-idle.json" "$PREFIX" <<'EOF' | tee -a "$summary"
import json, sys
d = json.load(open(sys.argv[1]))
envs = [e for e in d["snapshot"]["python"]["environments"] if e["prefix"] == sys.argv[2]]
if not envs:
    print("FAIL %s not found" % sys.argv[2]); sys.exit(0)
e = envs[0]
fw = {f["framework"]: f for f in e["frameworks"]}
pr = {p["framework"]: p for p in e["probes"]}
def ok(cond, what): print(("ok   " if cond else "FAIL ") + what)
t = fw.get("torch", {}); j = fw.get("jax", {})
ok(t.get("version", "").startswith("2.11") and t.get("cuda") == "13.0", "torch %s cuda %s (files)" % (t.get("version"), t.get("cuda")))
ok((j.get("version") or "").startswith("0.11"), "jax %s, %s (files)" % (j.get("version"), j.get("details", {}).get("cudaPlugin")))
ti = (pr.get("torch") or {}).get("info") or {}
ok(ti.get("cudnnVersion") == 91900, "torch.backends.cudnn.version() = %s" % ti.get("cudnnVersion"))
ok("sm_90" in (ti.get("archList") or []), "torch arch list %s" % ti.get("archList"))
for name, p in sorted(pr.items()):
    conv = [(c["mode"], c["ok"], (c.get("error") or {}).get("message", "")[:100]) for c in p["conv"]]
    if not conv:
        print("     %s: no convolution (imported=%s, %s)" % (name, p["imported"], (p.get("info") or {}).get("convSkipped") or p.get("exitDetail")))
        continue
    ok(conv[0][1], "%s conv %s (%d ms, libs %s)" % (name, conv, p["durationMs"], [l for l in p["loadedLibraries"] if "cudnn.so" in l]))
for f in d["findings"]:
    if f["check"].startswith("python.") and f["status"] not in ("ok", "skip"):
        print("     finding %s %s: %s" % (f["check"], f["status"], f["message"][:200]))
EOF

# ---- 2. while another process holds the memory
python3 test/fixtures/h200/hog.py ${HOG_KEEP_MIB:-700} 60 > /tmp/ged-hog.log 2>&1 &
HOG=$!
for i in $(seq 60); do grep -q holding /tmp/ged-hog.log 2>/dev/null && break; sleep 0.5; done
say "hog: $(cat /tmp/ged-hog.log)"
nvidia-smi --query-gpu=memory.used,memory.free --format=csv,noheader | sed 's/^/nvidia-smi used, free: /' | tee -a "$summary"
t0=$(ms); $CLI check --deep --json --python "$PY" > "$OUT/check-deep-hog.json" 2>> /tmp/ged-check-stderr.txt; rc=$?; t1=$(ms)
say "check --deep --json under the hog: $((t1 - t0)) ms, exit $rc"
raw_probe hog > "$OUT/probe-hog.txt" 2>&1
cleanup; HOG=""
$CLI check --from "$OUT/check-deep-hog.json" -v --no-color > "$OUT/check-deep-hog.txt" 2>&1

python3 - "$OUT/check-deep-hog.json" <<'EOF' | tee -a "$summary"
import json, sys
d = json.load(open(sys.argv[1]))
conv = [f for f in d["findings"] if f["check"] == "python.deep-conv"]
for f in conv:
    print("     %s %s rootCause=%s: %s" % (f.get("affects", {}).get("framework"), f["status"], f["rootCause"], f["message"][:240]))
bad = [f for f in conv if f["rootCause"] in ("cudnn_version_mismatch", "library_missing")]
mem = [f for f in conv if f["rootCause"] in ("memory_held_by_other_process", "gpu_memory_exhausted", "framework_preallocation")]
passed = [f for f in conv if f["status"] == "ok"]
print(("ok   " if not bad else "FAIL ") + "under the hog, no framework blamed cuDNN (%d memory verdicts, %d passed anyway)" % (len(mem), len(passed)))
EOF
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader | sed 's/^/left on the GPU: /'
[ -s /tmp/ged-check-stderr.txt ] && { echo "--- stderr of check:"; tail -20 /tmp/ged-check-stderr.txt; } | tee -a "$summary"
echo "evidence in $OUT: $(ls "$OUT" | tr '\n' ' ')"
