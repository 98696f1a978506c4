#!/usr/bin/env bash
# Issue 18 proof on the H200: `gpu-env-doctor serve` with a holder (an orphaned hog) and a running job (a
# PyTorch matmul loop) on the GPU. Over the loopback, with Node (there is no browser there), it saves the page
# HTML, state.json and a sample of the event stream, ends the holder and measures when the page shows it gone,
# then checks the token rule with --host 0.0.0.0. Every process it starts is ended (by PID).
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build      (carry .gpu-lab and dist)
#   there: source .gpu-lab/env.sh && OUT=/some/dir bash gpu-lab/serve.sh
# Evidence in $OUT: summary.txt, page-before.html, page-after.html, state-before.json, state-after.json,
# sse.txt, live-change.json, token.txt, serve-cost.txt, nvidia-smi.txt, serve.stdout, serve.stderr.
# Here, afterwards: node gpu-lab/render-page.mjs OUT/page-before.html docs/evidence/h200-serve (screenshots).
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
CLI=(node dist/cli.js)
PY=$(command -v python3)
WORK=$(mktemp -d)
INTERVAL=1
STARTED=()
cleanup() {
  for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
SUM="$OUT/summary.txt"
: >"$SUM"
FAILS=0
say() { echo "$*" | tee -a "$SUM"; }
check() { if [ "$2" -eq 0 ]; then say "PASS $1"; else say "FAIL $1"; FAILS=$((FAILS + 1)); fi; }
smi() { { echo "== $1 ($(date -u +%T))"; nvidia-smi --query-gpu=index,memory.total,memory.used --format=csv
  nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv; echo; } >>"$OUT/nvidia-smi.txt" 2>&1; }
url_of() { for _ in $(seq 1 100); do grep -o 'http://[^ ]*' "$1" 2>/dev/null | head -1 | grep . && return 0; sleep 0.2; done; return 1; }

say "serve.sh on $(hostname), $(date -u +%FT%TZ); node $(node --version)"
: >"$OUT/nvidia-smi.txt"
smi "before"

# ---- a running job (a child of this script: its parent is alive, and it keeps a CPU busy) -------------
cat >"$WORK/job.py" <<'PY'
import sys, time, torch
buf = torch.empty(int(sys.argv[1]) * 2**20, dtype=torch.uint8, device="cuda")
x = torch.randn(8192, 8192, device="cuda")
print("job running", flush=True)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    y = x @ x
    torch.cuda.synchronize()
print("job done", flush=True)
PY
"$PY" "$WORK/job.py" 20000 240 >"$WORK/job.log" 2>&1 &
JOB=$!
STARTED+=("$JOB")
for _ in $(seq 1 120); do grep -q "job running" "$WORK/job.log" && break; sleep 0.5; done
grep -q "job running" "$WORK/job.log"
check "a running job (PID $JOB) holds about 20 GiB" $?

# ---- a holder: an orphaned hog (started from a subshell that exits at once) ---------------------------
# Not setsid: a session leader under PID 1 may have been started by PID 1 itself ("unknown", issue 14); a process
# whose session is this script's while its parent is PID 1 was provably adopted (the truth table's orphan too).
( "$PY" test/fixtures/h200/hog.py 30000 300 >"$WORK/hog.log" 2>&1 & echo $! >"$WORK/hog.pid" )
HOG=$(cat "$WORK/hog.pid")
STARTED+=("$HOG")
for _ in $(seq 1 120); do grep -q "hog holding" "$WORK/hog.log" && break; sleep 0.5; done
grep -q "hog holding" "$WORK/hog.log"
check "a holder (PID $HOG, orphaned) holds all but 30000 MiB: $(head -1 "$WORK/hog.log")" $?
sleep 1
smi "job and holder"

# ---- serve on the loopback --------------------------------------------------------------------------
"${CLI[@]}" serve --port 0 --interval "$INTERVAL" --check-interval 15 >"$OUT/serve.stdout" 2>"$OUT/serve.stderr" &
SERVE=$!
STARTED+=("$SERVE")
URL=$(url_of "$OUT/serve.stdout")
check "serve started: $URL" $?
BASE=${URL%/}
node gpu-lab/serve-probe.mjs --base "$BASE" --out "$OUT" --holder "$HOG" --job "$JOB" --interval-ms $((INTERVAL * 1000)) >>"$SUM" 2>&1
check "the page showed the holder and the job, and the holder's end live (serve-probe.mjs)" $?
smi "after the holder ended"
# the checks' findings reached the page (the first run starts a second after serve; then every 15 s here)
node -e '
const http = require("http");
const get = () => new Promise((r) => http.get(process.argv[1] + "/state.json", (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => r(JSON.parse(b))); }).on("error", () => r(null)));
(async () => {
  for (let i = 0; i < 40; i++) {
    const s = await get();
    if (s && s.checks.at) {
      console.log(`checks at ${new Date(s.checks.at).toISOString()}, ${s.checks.count} checks, ${s.checks.items.length} problems: ${s.checks.items.map((x) => x.message).join(" | ").slice(0, 600)}`);
      process.exit(0);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log("no findings on the page after 40 s");
  process.exit(1);
})();' "$BASE" >>"$SUM" 2>&1
check "the checks' findings are on the page" $?

# ---- what serving cost ----------------------------------------------------------------------------------
if [ -r "/proc/$SERVE/stat" ]; then
  read -r -a ST <"/proc/$SERVE/stat"
  TICKS=$(getconf CLK_TCK)
  UP=$(awk '{print $1}' /proc/uptime)
  AGE=$(awk -v up="$UP" -v st="${ST[21]}" -v hz="$TICKS" 'BEGIN{printf "%.1f", up - st/hz}')
  CPU=$(awk -v u="${ST[13]}" -v s="${ST[14]}" -v cu="${ST[15]}" -v cs="${ST[16]}" -v hz="$TICKS" 'BEGIN{printf "%.2f", (u+s+cu+cs)/hz}')
  RSS=$(awk '/VmRSS/{print $2" "$3}' "/proc/$SERVE/status")
  COST="serve cost: ${CPU} s of CPU (with its nvidia-smi children) in ${AGE} s at --interval $INTERVAL; RSS $RSS"
  say "$COST"
  echo "$COST" >"$OUT/serve-cost.txt"
fi
kill -TERM "$SERVE" 2>/dev/null
wait "$SERVE" 2>/dev/null
check "serve stopped on SIGTERM" 0

# ---- the token rule on a non-loopback address ------------------------------------------------------------
"${CLI[@]}" serve --host 0.0.0.0 --port 0 --check-interval 0 >"$WORK/t.stdout" 2>"$WORK/t.stderr" &
TS=$!
STARTED+=("$TS")
TURL=$(url_of "$WORK/t.stdout")
PORT=$(echo "$TURL" | sed -E 's#http://[^:]+:([0-9]+)/.*#\1#')
TOKEN=${TURL##*token=}
node -e '
const http = require("http");
const [port, token] = process.argv.slice(1);
const get = (p) => new Promise((r) => http.get({ host: "127.0.0.1", port, path: p, agent: false }, (res) => { res.resume(); r(res.statusCode); }).on("error", () => r(0)));
(async () => {
  const a = await get("/"), b = await get("/events"), c = await get("/state.json"), d = await get("/state.json?token=" + token);
  console.log(`without the token: / ${a}, /events ${b}, /state.json ${c}; with it: ${d}`);
  process.exit(a === 401 && b === 401 && c === 401 && d === 200 ? 0 : 1);
})();' "$PORT" "$TOKEN" >"$OUT/token.txt" 2>&1
check "--host 0.0.0.0: $(cat "$OUT/token.txt")" $?
kill -TERM "$TS" 2>/dev/null
wait "$TS" 2>/dev/null

kill -TERM "$JOB" 2>/dev/null
wait "$JOB" 2>/dev/null
smi "end"
say "$FAILS failed"
exit $((FAILS > 0))
