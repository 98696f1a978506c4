#!/usr/bin/env bash
# Issue 17 proof on the H200: every speed figure beside its floor in one run (bench/speed.mjs --real: check, libs,
# --version, explain of a short log, fleet of 10,000 snapshots, explain throughput, check --deep beside
# collect_env), then the native cuDNN smoke test (`check --deep`) in the four scenarios:
#   idle                                   passes
#   hog.py leaving 700 MiB                 fails for memory, says so, passes with a smaller workspace
#   system cuDNN folder first on LD_LIBRARY_PATH   reports what cuDNN itself says about the mixed files
#   LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat    reports CUDA's error 803
# plus a CPU profile of `check --json` and the probe timings (for the next round of work), and how long
# `nvidia-smi --query-gpu` takes for the fields check reads from `-q -x` (is a cheaper call possible?).
#
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build && node bench/speed.mjs --prepare .gpu-lab/speed-entry.mjs
#          && node bench/prejudge.mjs --prepare .gpu-lab/prejudge-entry.mjs
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/speed.sh
# Issue 29's targets, read off the summary: check --json ≤ node -e 0 + nvidia-smi -q -x + 50 ms; short explain ≤ node
# + 40 ms; check --deep ≤ 0.2× collect_env and ≤ 1 s; fleet of 10,000 ≤ 2.5× a bare parse. In the probe lines,
# check's main-thread work (libraries, python) must end before nvidia-smi's answer (its probe ≈ -q -x alone).
# About 4 minutes (SPEED_SCENARIOS=0 skips the four smoke scenarios; SPEED_RUNS, SPEED_DEEP_RUNS, SPEED_FLEET, SPEED_EXPLAIN_MB shorten the bench; SPEED_COMPARE=
# .gpu-lab/main-dist/cli.js measures another build in the same rounds, rows marked with its path). Every process it
# starts is ended (trap).
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI="node dist/cli.js"
PY=${PY:-/opt/torch/.venv/bin/python3}; [ -x "$PY" ] || PY=python3
WORK=$(mktemp -d /tmp/ged-speed-lab.XXXXXX)
HOG=""
cleanup() { [ -n "$HOG" ] && kill "$HOG" 2>/dev/null; pkill -f 'hog.py 700 150' 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
S="$OUT/summary.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
say "node $(node --version), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), python $PY"
# fleet's chunks go to as many worker threads as the cores this process may use (at most 8)
say "cores $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"

# The facts of one check --deep run: the smoke runs and the libs.cudnn-smoke findings, one line each.
smoke_summary() {
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const sm = o.snapshot.smoke;
    if (!sm) { console.log("  no smoke section"); process.exit(0); }
    if (sm.skipped) console.log("  skipped: " + sm.skipped);
    for (const r of sm.runs) {
      console.log(`  run: ${r.consumers.map((c) => c.framework).join("+")} exit=${r.exit} ${r.durationMs} ms, cudnnGetVersion=${r.versions?.cudnn ?? "-"}, devices=${JSON.stringify(r.devices)}`);
      console.log(`  files: ${r.files.map((f) => `${f.role}=${f.path}${f.version ? " (" + f.version + ")" : ""}`).join(", ")}`);
      console.log(`  mapped: ${r.mapped.join(", ")}`);
      for (const g of r.gpus) console.log(`  gpu ${g.device} ${g.busId}: context at ${g.contextMs} ms, free ${g.freeBeforeMiB}/${g.totalMiB} MiB, handle ${g.handle}, cublas ${JSON.stringify(g.cublas)}, error ${JSON.stringify(g.error)}${g.crash ? ", crash " + g.crash : ""}; conv ${JSON.stringify(g.conv.map((c) => ({ ws: c.workspace, MiB: c.workspaceMiB, ok: c.ok, err: c.error && c.error.name, freeAtFailure: c.freeAtFailureMiB })))}`);
    }
    for (const f of o.findings.filter((f) => f.check === "libs.cudnn-smoke")) console.log(`  finding: ${f.severity}/${f.status} [${f.rootCause}] ${f.message}`);
    const t = o.snapshot.probes.map((p) => p.id + " " + p.durationMs).join(", ");
    console.log("  probes: " + t);
  ' "$1"
}

deep() { # name, then env assignments for the run
  local name=$1; shift
  local s=$(date +%s%N)
  env "$@" $CLI check --deep --json > "$OUT/deep-$name.json" 2> "$OUT/deep-$name.err"
  local rc=$? e=$(date +%s%N)
  say "== check --deep, $name: exit $rc in $(( (e - s) / 1000000 )) ms"
  smoke_summary "$OUT/deep-$name.json" | tee -a "$S"
}

# 1. The figures, interleaved, beside their floors.
say "== bench/speed.mjs --real"
node bench/speed.mjs --real --entry .gpu-lab/speed-entry.mjs --python "$PY" --runs "${SPEED_RUNS:-7}" --start-runs "${SPEED_START_RUNS:-31}" --deep-runs "${SPEED_DEEP_RUNS:-3}" --fleet "${SPEED_FLEET:-10000}" --explain-mb "${SPEED_EXPLAIN_MB:-64}" ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} --json > "$OUT/speed.json" 2> "$OUT/speed.err"
say "bench exit $? ($(tail -1 "$OUT/speed.err"))"
node -e '
  const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(o.header);
  for (const f of o.floors) console.log(`  floor ${f.label}: median ${f.medianMs} ms, min ${f.minMs}`);
  for (const r of o.results) console.log(`  ${r.label}: median ${r.medianMs} ms (min ${r.minMs}) vs ${r.floor} ${r.floorMedianMs} ms = ${r.ratio}x; target ${r.target}: ${r.ok === null ? "-" : r.ok ? "yes" : "NO"}`);
' "$OUT/speed.json" | tee -a "$S"

# 2. Where check's time goes on this machine: probe timings of a few runs and one CPU profile.
for i in 1 2 3; do $CLI snapshot > "$WORK/snap.json"; node -e 'const s=require(process.argv[1]);console.log("  probes: "+s.probes.map(p=>p.id+" "+p.durationMs+(p.message?" ("+p.message+")":"")).join(", "))' "$WORK/snap.json" | tee -a "$S"; done
node --cpu-prof --cpu-prof-dir="$OUT" --cpu-prof-name=check.cpuprofile dist/cli.js check --json > /dev/null
say "cpu profile of check --json: $OUT/check.cpuprofile"
# its main thread in 10 ms slices: when nvidia-smi was spawned, the idle wait for its answer, what ran after it
# and when the checks ran: begun while nvidia-smi works (beginChecks), the XML parsed once it answered
# (parseSmiXml), what was left after it (finishChecks: the GPU's checks, on warm code)
node bench/profile-timeline.mjs "$OUT/check.cpuprofile" --fn beginChecks,parseSmiXml,finishChecks > "$OUT/check-timeline.txt" 2>&1 && { head -1 "$OUT/check-timeline.txt"; tail -3 "$OUT/check-timeline.txt"; } | tee -a "$S"
# three more profiles of this build, and of the compared one (its checks: runChecks, all after the parse)
fnline() { node bench/profile-timeline.mjs "$1" --fn "$2" > "$1.txt" 2>&1; echo "  $3: $(head -1 "$1.txt"); $(tail -n "$4" "$1.txt" | tr '\n' ';')" | tee -a "$S"; }
for i in 2 3 4; do
  node --cpu-prof --cpu-prof-dir="$WORK" --cpu-prof-name=c$i.cpuprofile dist/cli.js check --json > /dev/null
  fnline "$WORK/c$i.cpuprofile" beginChecks,parseSmiXml,finishChecks "this build" 3
  if [ -n "${SPEED_COMPARE:-}" ]; then
    node --cpu-prof --cpu-prof-dir="$WORK" --cpu-prof-name=m$i.cpuprofile "$SPEED_COMPARE" check --json > /dev/null
    fnline "$WORK/m$i.cpuprofile" parseSmiXml,runChecks "$SPEED_COMPARE" 2
  fi
done
# the checks' CPU time after the answer: all of them cold (before) against begun early (a whole wait, or 10-20 ms)
if [ -f .gpu-lab/prejudge-entry.mjs ]; then
  node bench/prejudge.mjs --entry .gpu-lab/prejudge-entry.mjs --runs 5 --window 10,20 2>&1 | tee -a "$S"
else
  say "no .gpu-lab/prejudge-entry.mjs (here: node bench/prejudge.mjs --prepare .gpu-lab/prejudge-entry.mjs)"
fi
FIELDS=index,uuid,name,driver_version,memory.total,memory.used,memory.free,memory.reserved,compute_cap,pci.bus_id,serial,persistence_mode,compute_mode,mig.mode.current,ecc.mode.current,ecc.errors.uncorrected.volatile.total,ecc.errors.uncorrected.aggregate.total,ecc.errors.corrected.volatile.total,retired_pages.pending,retired_pages.sbe,retired_pages.dbe,remapped_rows.pending,remapped_rows.failure,remapped_rows.uncorrectable
for cmd in "-q -x" "--query-gpu=$FIELDS --format=csv" "--query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv"; do
  t=""; for i in 1 2 3 4 5; do s=$(date +%s%N); nvidia-smi $cmd > "$WORK/smi.out" 2>&1; e=$(date +%s%N); t="$t $(( (e - s) / 1000000 ))"; done
  say "nvidia-smi ${cmd%% *}…: ms$t ($(head -c 120 "$WORK/smi.out" | tr '\n' ' '))"
done

# check's GPU probe runs `-q -x` and its --query-gpu (src/gather/nvidia/run.ts) at the same time: inside check the
# pair took 167-192 ms where -q -x alone takes ~115 ms. Alone, together, one after the other (is NVML serialising them?).
QARGS="--query-gpu=index,uuid,name,driver_version,memory.total,memory.used,memory.free,compute_cap,pci.bus_id --format=csv,noheader,nounits"
for mode in alone together sequential; do
  t=""; for i in 1 2 3 4 5 6 7; do
    s=$(date +%s%N)
    case $mode in
      alone) nvidia-smi -q -x > /dev/null 2>&1 ;;
      together) nvidia-smi -q -x > /dev/null 2>&1 & P=$!; nvidia-smi $QARGS > /dev/null 2>&1; wait $P ;;
      sequential) nvidia-smi -q -x > /dev/null 2>&1; nvidia-smi $QARGS > /dev/null 2>&1 ;;
    esac
    e=$(date +%s%N); t="$t $(( (e - s) / 1000000 ))"
  done
  say "nvidia-smi -q -x + probe's --query-gpu, $mode: ms$t"
done
# when check starts nvidia-smi, and when each answer is read (the bundle's own probe timings beside the wall time)
for i in 1 2 3; do
  s=$(date +%s%N); $CLI check --json > "$WORK/check.json" 2>/dev/null; e=$(date +%s%N)
  node -e 'const r=require(process.argv[1]);console.log("  check --json "+process.argv[2]+" ms wall; probes: "+r.snapshot.probes.map(p=>p.id+" "+p.durationMs).join(", "))' "$WORK/check.json" $(( (e - s) / 1000000 )) | tee -a "$S"
done

# 3. The native smoke test in the four scenarios (SPEED_SCENARIOS=0 skips them: a speed-only run).
if [ "${SPEED_SCENARIOS:-1}" != 0 ]; then
BASE_LLP=${LD_LIBRARY_PATH:-}
deep idle
# hog.py leaving 700 MiB, orphaned like a leftover (the subshell that starts it exits at once)
( python3 test/fixtures/h200/hog.py 700 150 > "$WORK/hog.log" 2>&1 & )
for i in $(seq 120); do grep -q holding "$WORK/hog.log" 2>/dev/null && break; sleep 0.5; done
HOG=$(pgrep -f 'hog.py 700 150' | head -1)
say "hog: pid ${HOG:-none}, $(head -1 "$WORK/hog.log" 2>/dev/null); free now: $(nvidia-smi --query-gpu=memory.free --format=csv,noheader)"
deep hog700
[ -n "$HOG" ] && kill "$HOG" 2>/dev/null; HOG=""; sleep 2
deep system-first LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu${BASE_LLP:+:$BASE_LLP}
deep compat LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat${BASE_LLP:+:$BASE_LLP}
# the frameworks' own convolution beside the native test, once, idle (their result wins where both ran)
$CLI check --deep=frameworks --json > "$OUT/deep-frameworks.json" 2>/dev/null; say "== check --deep=frameworks: exit $?"; smoke_summary "$OUT/deep-frameworks.json" | tee -a "$S"
$CLI check --deep -v > "$OUT/deep-idle-v.txt" 2>&1; say "check --deep -v (idle): $OUT/deep-idle-v.txt"
fi
nvidia-smi --query-gpu=memory.used --format=csv,noheader | sed 's/^/memory used at the end: /' | tee -a "$S"
