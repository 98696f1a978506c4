#!/usr/bin/env bash
# GPU-machine proof for issue 3 (`libs`: which library file each framework really loads).
# Run from the repo root on the H200 machine after `source .gpu-lab/env.sh` and a build of dist/cli.js:
#   OUT=/some/dir bash gpu-lab/libs.sh
# Compares the emulation (no framework imported) with the real loader: LD_DEBUG=libs of torch doing a
# convolution (cuDNN sub-libraries load), /proc/PID/maps of a running torch process (libs --pid), JAX;
# then the forward-compat case LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat (expected: error 803).
# Writes 8 files to $OUT (summary, libs.json, libs.txt, ld-debug-torch.txt, libs-pid.json, ld-debug-jax.txt,
# compat.txt, preload-src.txt); kills the one background process it starts. Expected truth there: torch loads
# cuDNN 9.19 from site-packages/nvidia/cudnn while the ld cache offers the system's 9.14.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
mkdir -p "$OUT"
CLI="node dist/cli.js"
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
CONV='import torch; x=torch.randn(1,3,16,16,device="cuda"); w=torch.randn(4,3,3,3,device="cuda"); torch.backends.cudnn.version(); torch.nn.functional.conv2d(x,w); torch.cuda.synchronize()'

say "== 1. libs (emulation only, nothing imported)"
t0=$(date +%s%N)
$CLI libs --json > "$OUT/libs.json"; rc=$?
t1=$(date +%s%N)
$CLI libs -v > "$OUT/libs.txt" 2>&1
say "libs --json exit=$rc in $(( (t1-t0)/1000000 )) ms"
head -40 "$OUT/libs.txt"

say "== 2. real loader: LD_DEBUG=libs python3 (torch conv2d on the GPU, so cuDNN loads its sub-libraries)"
LD_DEBUG=libs timeout 90 python3 -c "$CONV" 2> "$OUT/ld-debug-raw.txt" >/dev/null
say "python exit=$?"
grep -E 'calling init:|find library=lib(cud|cub|cuf|cus|cur|nccl|nvrtc|nvJit|nvidia-ml)' "$OUT/ld-debug-raw.txt" > "$OUT/ld-debug-torch.txt"
rm -f "$OUT/ld-debug-raw.txt"

say "== 3. running torch process: libs --pid"
python3 -c "$CONV; print('ready', flush=True); import time; time.sleep(60)" > /tmp/ged-libs-torch.log 2>&1 &
TORCH_PID=$!
for i in $(seq 120); do grep -q ready /tmp/ged-libs-torch.log 2>/dev/null && break; sleep 0.5; done
$CLI libs --json --pid "$TORCH_PID" > "$OUT/libs-pid.json"
$CLI libs --pid "$TORCH_PID" 2>&1 | sed -n '/Loaded by running/,/ld cache/p' | tee -a "$summary"
{ echo "--- /proc/$TORCH_PID/maps (CUDA libraries)"; grep -E 'libcud|libcub|libcuda|libnccl' "/proc/$TORCH_PID/maps" | awk '{print $6}' | sort -u; } >> "$summary" 2>/dev/null
kill "$TORCH_PID" 2>/dev/null; wait "$TORCH_PID" 2>/dev/null

say "== 4. JAX: real loader vs emulation"
LD_DEBUG=libs XLA_PYTHON_CLIENT_PREALLOCATE=false timeout 90 python3 -c 'import jax, jax.numpy as jnp; print(jnp.ones(4).sum())' 2>&1 >/dev/null \
  | grep -E 'calling init:.*lib(cud|cub|cuf|cus|nccl|nvrtc|nvJit|cuda\.so)' > "$OUT/ld-debug-jax.txt"
say "jax: $(wc -l < "$OUT/ld-debug-jax.txt") CUDA libraries initialised"

say "== 5. compare: emulated file vs the file the real loader initialised (per library family)"
node - "$OUT" >> "$summary" <<'EOF'
const fs = require('fs'); const out = process.argv[2];
const j = JSON.parse(fs.readFileSync(`${out}/libs.json`, 'utf8'));
const fam = (p) => (/(libcudnn(?:_[a-z_]+)?|libcudart|libcublasLt|libcublas|libcufft|libcusparse|libcurand|libcusolver|libnccl|libnvrtc|libnvJitLink|libcuda|libnvidia-ml)[.-]/.exec(p.split('/').pop()) || [])[1];
for (const [fw, file] of [['torch', 'ld-debug-torch.txt'], ['jax', 'ld-debug-jax.txt']]) {
  const c = j.consumers.find((x) => x.framework === fw);
  if (!c) { console.log(`${fw}: no consumer found by the emulation`); continue; }
  const real = new Map();
  for (const l of fs.readFileSync(`${out}/${file}`, 'utf8').split('\n')) {
    const m = /calling init: (\S+)/.exec(l); if (!m) continue;
    let p = m[1]; try { p = fs.realpathSync(p); } catch {}
    const f = fam(p); if (f && !real.has(f)) real.set(f, p);
  }
  let agree = 0, differ = 0;
  for (const r of c.resolved) {
    if (!r.family || !real.has(r.family)) continue;
    const ok = r.realPath === real.get(r.family);
    ok ? agree++ : differ++;
    console.log(`${fw} ${ok ? 'SAME' : 'DIFF'} ${r.name}: emulated ${r.realPath} (${r.version}, ${r.via}) | loaded ${real.get(r.family)}`);
  }
  console.log(`${fw}: ${agree} agree, ${differ} differ (${real.size} CUDA families initialised by the real loader)`);
}
const cud = j.copies.filter((x) => x.name === 'libcudnn').map((x) => `${x.version} ${x.origin} ${x.path}`);
console.log(`cuDNN copies: ${cud.join(' | ')}`);
EOF
tail -25 "$summary"

say "== 6. forward-compat libcuda: LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat"
{
  echo "--- gpu-env-doctor libs"
  LD_LIBRARY_PATH="/usr/local/cuda-13.0/compat:${LD_LIBRARY_PATH:-}" $CLI libs; echo "exit=$?"
  echo "--- what torch really does with it"
  LD_LIBRARY_PATH="/usr/local/cuda-13.0/compat:${LD_LIBRARY_PATH:-}" timeout 90 python3 -c 'import torch; print(torch.zeros(1).cuda())' 2>&1 | tail -4
  echo "--- and with the system cuDNN first in LD_LIBRARY_PATH (sub-library mismatch case)"
  LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" $CLI libs | grep -E '✗|!|libcudnn_cnn' | head
  LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" timeout 90 python3 -c "$CONV; print('conv ok')" 2>&1 | tail -3
} > "$OUT/compat.txt" 2>&1
grep -E '✗|803|conv ok|Error|error' "$OUT/compat.txt" | head -8 | tee -a "$summary"

say "== 7. the frameworks' own preloading code (to check src/knowledge/libraries/frameworks.json)"
{
  TI=$(python3 -c 'import torch,os;print(torch.__file__)' 2>/dev/null)
  echo "--- $TI"; awk '/def _load_global_deps/,/^def [a-z_]+\(/{print}' "$TI" | head -120
  awk '/def _preload_cuda_deps|def _get_cuda_dep_paths/,/^def _load_global/{print}' "$TI" | head -60
  for f in $(python3 -c 'import jax_plugins,os;print(" ".join(os.path.join(p) for p in jax_plugins.__path__))' 2>/dev/null); do
    for i in "$f"/xla_cuda*/__init__.py; do echo "--- $i"; grep -n -A40 '_load_nvidia_libraries\|def _load(' "$i" | head -100; done
  done
} > "$OUT/preload-src.txt" 2>&1
say "preload sources: $(wc -l < "$OUT/preload-src.txt") lines"
ls "$OUT" | tee -a "$summary"
