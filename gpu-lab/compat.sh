#!/usr/bin/env bash
# GPU-machine proof for issue 5 (version knowledge, compat, versions.* checks).
# Run from the repo root on the H200 machine after `source .gpu-lab/env.sh` and a build of dist/cli.js:
#   OUT=/some/dir bash gpu-lab/compat.sh
# Writes at most 8 files to $OUT; starts no background process.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
CLI="node dist/cli.js"
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

# 1. this machine: the torch and JAX that are installed must fit
$CLI compat torch==2.11.0+cu130 > "$OUT/compat-torch.txt" 2>&1; rc_torch=$?
$CLI compat jax==0.11.2 --json > "$OUT/compat-jax.json" 2> "$OUT/compat-jax.stderr"; rc_jax=$?
grep -q 'Verdict: this machine fits torch 2.11.0' "$OUT/compat-torch.txt" && ok_torch=yes || ok_torch=no
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["machine"]["ok"] else 1)' "$OUT/compat-jax.json" && ok_jax=yes || ok_jax=no
say "compat torch==2.11.0+cu130: exit $rc_torch, fits=$ok_torch"
say "compat jax==0.11.2: exit $rc_jax, fits=$ok_jax"

# 2. the real snapshot (with the Python probe), then the same with the driver planted at 470.82.01
$CLI snapshot > "$OUT/snapshot.json" 2> /dev/null
python3 - "$OUT/snapshot.json" "$OUT/old-driver.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["nvidia"]["driverVersion"] = "470.82.01"
d["nvidia"]["cudaVersion"] = "11.4"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
{
  echo "### check --from old-driver.json (versions.* findings)"
  $CLI check --from "$OUT/old-driver.json" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    if f["check"].startswith("versions."):
        print(f["check"], f["severity"], f["status"], f.get("rootCause"), "-", f["message"])
        fix = f.get("fix")
        if fix:
            print("   fix:", fix["text"])
            for c in fix.get("commands", []): print("   $", c)
            for c in fix.get("manual", []): print("   (by hand)", c)
'
  echo "exit: ${PIPESTATUS[0]}"
  echo
  echo "### compat torch==2.11.0+cu130 --from old-driver.json"
  $CLI compat torch==2.11.0+cu130 --from "$OUT/old-driver.json"; echo "exit: $?"
  echo
  echo "### compat jax==0.11.2 --from old-driver.json"
  $CLI compat jax==0.11.2 --from "$OUT/old-driver.json"; echo "exit: $?"
} > "$OUT/old-driver-advice.txt" 2>&1
grep -q 'needs NVIDIA driver 580.65.06 or newer; this driver is 470.82.01' "$OUT/old-driver-advice.txt" && old_ok=yes || old_ok=no
grep -q 'upgrade the NVIDIA driver to 580.65.06 or newer' "$OUT/old-driver-advice.txt" && up_ok=yes || up_ok=no
say "old driver 470.82.01: driver_too_old reported=$old_ok, upgrade to 580.65.06 advised=$up_ok"
grep -m1 '^\s*\$ pip install torch' "$OUT/old-driver-advice.txt" | sed 's/^/  newest torch for 470: /' | tee -a "$summary"

# 3. the real snapshot's own version findings (should have no errors)
$CLI check --from "$OUT/snapshot.json" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    if f["check"].startswith("versions."):
        print(f["check"], f["severity"], f["status"], "-", f["message"])
' > "$OUT/check-versions-real.txt" 2>&1
errors=$(grep -c ' error ' "$OUT/check-versions-real.txt" || true)
say "real snapshot versions.* findings: $(wc -l < "$OUT/check-versions-real.txt") lines, $errors errors"
# nvcc on this machine vs torch's CUDA, for the record
(nvcc --version 2>/dev/null | tail -2; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())' 2>/dev/null) >> "$summary"
