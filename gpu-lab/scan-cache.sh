#!/usr/bin/env bash
# Issue 29: check --json with the library scan kept between runs (src/gather/libraries/scan-cache.ts), on the GPU
# machine. In CACHE_RUNS (9) interleaved rounds: node -e 0, nvidia-smi -q -x, check --json with the kept answer
# (warm), with the cache off (GPU_ENV_DOCTOR_NO_CACHE=1: the scan's worker, as before), and a base build
# (CACHE_COMPARE, default .gpu-lab/main-dist/cli.js). Then the proofs: the libraries section (but its timing) and
# the findings identical in every run of every kind; what the fingerprint holds (how many reads, none under $HOME's
# top or /tmp that change all the time); a library of torch's touched → the next run scans again, then keeps again.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/scan-cache.sh
# About a minute. Results in $OUT/scan-cache.txt and $OUT/scan-cache.tgz (every run's output).
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
RUNS=${CACHE_RUNS:-9}
BASE=${CACHE_COMPARE:-.gpu-lab/main-dist/cli.js}
W=$(mktemp -d /tmp/ged-scan-cache.XXXXXX)
export XDG_CACHE_HOME="$W/cache"
trap 'rm -rf "$W"' EXIT
S="$OUT/scan-cache.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
say "node $(node --version), cores $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), base $BASE"
node dist/cli.js check --json > "$W/first.json" 2>&1 # fills the compile cache and the scan cache
node "$BASE" check --json > /dev/null 2>&1
: > "$W/times.txt"
for i in $(seq 1 "$RUNS"); do
  n=$(ms node -e 0); smi=$(ms nvidia-smi -q -x)
  s=$(date +%s%N); node dist/cli.js check --json > "$W/warm-$i.json"; e=$(date +%s%N); warm=$(( (e - s) / 1000000 ))
  s=$(date +%s%N); GPU_ENV_DOCTOR_NO_CACHE=1 node dist/cli.js check --json > "$W/cold-$i.json"; e=$(date +%s%N)
  cold=$(( (e - s) / 1000000 ))
  s=$(date +%s%N); node "$BASE" check --json > "$W/base-$i.json"; e=$(date +%s%N); base=$(( (e - s) / 1000000 ))
  say "round $i: node -e 0 $n, nvidia-smi -q -x $smi, check warm $warm, cold $cold, base $base ms"
  echo "$n $smi $warm $cold $base" >> "$W/times.txt"
done
python3 - "$W/times.txt" <<'PY' | tee -a "$S"
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
med = [statistics.median(c) for c in zip(*rows)]
mins = [min(c) for c in zip(*rows)]
names = ['node -e 0', 'nvidia-smi -q -x', 'check warm', 'check cold', 'check base']
for n, m, lo in zip(names, med, mins): print(f"median {n}: {m:.0f} ms (min {lo})")
print(f"target node + nvidia-smi + 50: {med[0] + med[1] + 50:.0f} ms; warm - target: {med[2] - (med[0] + med[1] + 50):+.0f}")
PY
node - "$W" <<'JS' | tee -a "$S"
const fs = require('fs'); const dir = process.argv[2];
const files = fs.readdirSync(dir).filter((f) => /^(warm|cold|base)-\d+\.json$/.test(f)).sort();
const view = (f) => {
  const o = JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8'));
  const { durationMs, ...libraries } = o.snapshot.libraries;
  const probe = o.snapshot.probes.find((p) => p.id === 'libraries');
  const fat = o.snapshot.probes.find((p) => p.id === 'torch-fatbin');
  return { libs: JSON.stringify(libraries), findings: JSON.stringify(o.findings.map((x) => [x.id, x.severity])),
    python: JSON.stringify(o.snapshot.python), msg: probe?.message ?? '', ms: probe?.durationMs, fat: fat?.message ?? '',
    fatMs: fat?.durationMs };
};
const all = files.map((f) => [f, view(f)]);
const ref = all[0][1];
let same = 0;
for (const [f, v] of all) {
  if (v.libs === ref.libs && v.findings === ref.findings && v.python === ref.python) same++;
  else console.log(`DIFFERS: ${f}`);
}
console.log(`${same} of ${all.length} runs: libraries section (but timing), python section and findings identical`);
for (const k of ['warm', 'cold', 'base']) {
  const v = all.filter(([f]) => f.startsWith(k)).map(([, x]) => x);
  console.log(`${k}: libraries ${v.map((x) => x.ms).join(' ')} ms — "${v[0].msg}"; fatbin ${v.map((x) => x.fatMs).join(' ')} ms — "${v[0].fat}"`);
}
const c = JSON.parse(fs.readFileSync(`${process.env.XDG_CACHE_HOME}/gpu-env-doctor/library-scan.json`, 'utf8'));
const fp = c.scans[0].fingerprint;
console.log(`cache file ${fs.statSync(`${process.env.XDG_CACHE_HOME}/gpu-env-doctor/library-scan.json`).size} bytes: ` +
  `${c.scans.length} scan(s), ${c.fatbins.length} fatbin(s); fingerprint ${fp.paths.length} paths, ` +
  `${fp.resolved.length} links, ${fp.texts.length} texts, env ${JSON.stringify(fp.env)}`);
const home = process.env.HOME ?? '/root';
const hot = fp.paths.filter(([p]) => p === home || p === '/tmp' || p === '/' || p.startsWith('/tmp/'));
console.log(`paths that change often (HOME itself, /, /tmp): ${JSON.stringify(hot)}`);
console.log(`folders kept for absent paths, the first 40: ${fp.paths.filter(([, , id]) => id.startsWith('d:')).slice(0, 40).map(([p]) => p).join(' ')}`);
JS
# a change the scan depends on: torch's lib folder gains a file, then loses it
PY=${PY:-/opt/torch/.venv/bin/python3}
LIB=$("$PY" -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)
if [ -n "$LIB" ] && [ -d "$LIB" ]; then
  touch "$LIB/ged-probe-marker.so"
  sleep 2.2
  for k in after-add kept-again; do
    node dist/cli.js check --json > "$W/$k.json"
    say "$k: $(node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(o.snapshot.probes.find(p=>p.id==="libraries").message)' "$W/$k.json")"
  done
  rm -f "$LIB/ged-probe-marker.so"
  sleep 2.2
  node dist/cli.js check --json > "$W/after-remove.json"
  say "after-remove: $(node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(o.snapshot.probes.find(p=>p.id==="libraries").message)' "$W/after-remove.json")"
fi
cp "$XDG_CACHE_HOME/gpu-env-doctor/library-scan.json" "$W/library-scan.json"
tar -czf "$OUT/scan-cache.tgz" -C "$W" --exclude cache .
