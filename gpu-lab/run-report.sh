#!/usr/bin/env bash
# Issue 7 proof: `run -- CMD` on the H200. hog.py holds all GPU memory but 1200 MiB; conv.py (batch 64) then
# runs out of memory under `run`, which must name the hog's PID in its diagnosis and write the HTML report.
# Then, with the hog gone, a successful run prints its one line; then the overhead benchmark with a GPU job.
# Writes to $OUT: run-fail.txt, run-fail.json, run-fail.md, run-report.html, run-report.png (when chromium is
# there), run-ok.txt, bench.txt. Runs from the repo root after `source .gpu-lab/env.sh` and a build.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI="node dist/cli.js"
HOG=""
cleanup() { [ -n "$HOG" ] && kill "$HOG" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

echo "== the hog"
python3 test/fixtures/h200/hog.py 1200 90 > /tmp/ged-hog.log 2>&1 &
HOG=$!
for i in $(seq 120); do grep -q holding /tmp/ged-hog.log 2>/dev/null && break; sleep 0.25; done
cat /tmp/ged-hog.log
SMI_PIDS=$(nvidia-smi --query-compute-apps=pid --format=csv,noheader,nounits | tr -d ' ' | paste -sd' ')
echo "hog PID here: $HOG; GPU PIDs per nvidia-smi: $SMI_PIDS"

echo "== a job that fails because the hog holds the memory"
{
  echo "# hog PID here: $HOG; GPU PIDs per nvidia-smi (host PIDs in a container): $SMI_PIDS"
  echo "# $ gpu-env-doctor run --html run-report.html -- python3 test/fixtures/h200/conv.py 0 64"
  $CLI run --html "$OUT/run-report.html" -- python3 test/fixtures/h200/conv.py 0 64
  echo "# exit code: $?"
} > "$OUT/run-fail.txt" 2>&1
tail -45 "$OUT/run-fail.txt"
$CLI run --json -- python3 test/fixtures/h200/conv.py 0 64 2> "$OUT/run-fail.stderr" > /dev/null
RC_JSON=$?
# the JSON report is the last thing on stderr, after the job's own traceback
python3 - "$OUT/run-fail.stderr" "$OUT/run-fail.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
i = text.find('\n{\n  "schemaVersion"')
open(sys.argv[2], 'w').write(text[i + 1:] if i >= 0 else text)
PY
rm -f "$OUT/run-fail.stderr"
$CLI run --markdown --redact -- python3 test/fixtures/h200/conv.py 0 64 2> "$OUT/run-fail.md" > /dev/null

echo "== verdict"
python3 - "$OUT/run-fail.json" "$HOG" "$SMI_PIDS" "$RC_JSON" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hog_pids = {sys.argv[2], *sys.argv[3].split()}
causes = d["diagnosis"]["causes"] if d.get("diagnosis") else []
top = causes[0] if causes else {}
text = json.dumps(top)
named = sorted(p for p in hog_pids if p and p in text)
tl = d["run"]["timeline"]
print("exit code passed through:", sys.argv[4], "(expected 1)")
print("top cause:", top.get("id"), round(top.get("confidence", 0), 2))
print("hog PID named in the top cause:", named or "NO")
print("snapshot taken on:", d["run"].get("snapshotTrigger"))
for g in tl["gpus"]:
    print(f"GPU {g['index']}: {len(g['points'])} samples, peak {g['peakUsedMiB']} of {g['totalMiB']} MiB, job peak {g['peakJobMiB']}")
for p in tl["processes"]:
    print(f"  PID {p['pid']} job={p['isJob']} by={p.get('jobBy')} peak {p['peakMiB']} MiB")
print("PASS" if top.get("id") == "memory_held_by_other_process" and named and sys.argv[4] == "1" else "FAIL")
PY

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  B=$(command -v chromium || command -v chromium-browser)
  P=$(mktemp -d)
  timeout 60 "$B" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$P" --hide-scrollbars --window-size=1000,4000 \
    --screenshot="$OUT/run-report.png" "file://$(realpath "$OUT/run-report.html")" >/dev/null 2>&1
  rm -rf "$P"
  ls -l "$OUT/run-report.png" 2>/dev/null || echo "screenshot failed"
else
  echo "no chromium here: screenshot the HTML elsewhere"
fi

echo "== the hog ends; a job that succeeds"
kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; HOG=""
for i in $(seq 40); do [ -z "$(nvidia-smi --query-compute-apps=pid --format=csv,noheader)" ] && break; sleep 0.25; done
$CLI run -- python3 test/fixtures/h200/conv.py 0 64 > "$OUT/run-ok.txt" 2>&1
echo "# exit code: $?" >> "$OUT/run-ok.txt"
cat "$OUT/run-ok.txt"

echo "== overhead on a GPU job (median of 4, interleaved)"
timeout 75 node bench/run-overhead.mjs --reps 4 -- python3 test/fixtures/h200/conv.py 0 64 2>&1 | tee "$OUT/bench.txt"
