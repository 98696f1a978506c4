#!/usr/bin/env bash
# Issue 29, explain's first pass over threads on the H200 (about a minute): a 512 MB training log (LF) and a 128 MB
# one with CRLF, each explained by path (threads: the main thread and up to 3 workers) and as standard input (in
# order, as before): the --json must be byte-identical (the source name aside); then explain-speed's 64 and 512 MB
# rows (bench/explain-speed.mjs: explain against `grep -E -i -c`, MB/s, peak RSS), this build and SPEED_COMPARE's.
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh &&
#          OUT=${OUT:-/tmp/out} SPEED_COMPARE=.gpu-lab/main-dist/cli.js bash gpu-lab/explain-threads.sh
# (THREADS_MB, THREADS_CRLF_MB: the two logs' sizes; THREADS_ONLY=1: the comparison alone, no speed rows)
# What proves it: "same --json: yes" for both logs, "workers: N" with N = 3, and the explain rows of 512 MB at
# ≥ 500 MB/s and ≤ 3× grep with peak RSS near the 64 MB row's.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
S="$OUT/explain-threads.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
say "node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
cat > "$W/hook.cjs" <<'HOOK'
const wt = require('node:worker_threads'); const W = wt.Worker; const said = [];
wt.Worker = class extends W { constructor(u, o) { super(u, o); const k = said.push('none') - 1;
  this.on('message', (m) => { said[k] = m.kind; }); } };
process.on('exit', () => process.stderr.write('workers: ' + said.length + ' ' + JSON.stringify(said) + '\n'));
HOOK
node -e "import('./bench/speed-lib.mjs').then((m) => {
  m.writeTrainingLog('$W/lf.log', ${THREADS_MB:-512} * 1048576, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
  const fs = require('node:fs');
  const head = fs.readFileSync('$W/lf.log').subarray(0, ${THREADS_CRLF_MB:-128} * 1048576).toString('latin1');
  const tail = fs.readFileSync('test/fixtures/h200/logs/conv-keep1200-bs64.txt', 'latin1');
  fs.writeFileSync('$W/crlf.log', head.replace(/\n/g, '\r\n') + tail, 'latin1');
})"
for log in lf crlf; do
  f="$W/$log.log"
  s0=$(date +%s%N)
  node -r "$W/hook.cjs" dist/cli.js explain "$f" --no-machine --json > "$W/$log.path.json" 2> "$W/$log.err"
  s1=$(date +%s%N)
  node dist/cli.js explain - --no-machine --json < "$f" > "$W/$log.stdin.json"
  s2=$(date +%s%N)
  sed -i "s#\"$f\"#\"stdin\"#" "$W/$log.path.json"
  same=no; cmp -s "$W/$log.path.json" "$W/$log.stdin.json" && same=yes
  say "$log: $(stat -c %s "$f") bytes; same --json: $same; by path $(( (s1 - s0) / 1000000 )) ms," \
    "stdin $(( (s2 - s1) / 1000000 )) ms; $(grep workers: "$W/$log.err")"
done
[ -n "${THREADS_ONLY:-}" ] && exit 0
node bench/explain-speed.mjs --runs 5 --big-runs 5 --mb 64 ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} 2>&1 \
  | grep -E 'MB|RSS|grep' | tee -a "$S"
node bench/explain-speed.mjs --runs 3 --big-runs 3 --mb 512 ${SPEED_COMPARE:+--compare "$SPEED_COMPARE"} 2>&1 \
  | grep -E 'MB|RSS|grep' | tee -a "$S"
