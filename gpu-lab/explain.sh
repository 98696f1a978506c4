#!/usr/bin/env bash
# Issue 6 proof: reproduce real failures on the H200, keep their logs, and run `explain` on each (the log
# alone, and combined with the machine while the failure's conditions still hold).
#   source .gpu-lab/env.sh && node scripts/build.mjs && OUT=/tmp/out bash gpu-lab/explain.sh
# Writes to $OUT: explain-logs.tgz (one raw log per scenario, named <scenario>.log, with its true cause in
# logs/INDEX.txt), summary.txt (scenario, true cause, explain's top 3, with and without the machine),
# explain-results.json (every explain --json), console.txt is what this prints. Kills every process it starts.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI="node dist/cli.js"
HOG=test/fixtures/h200/hog.py
W=$(mktemp -d /tmp/explain-lab.XXXXXX); mkdir -p "$W/logs"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done; sleep 0.5; for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null; done; PIDS=(); }
trap 'cleanup; rm -rf "$W"' EXIT
: > "$W/logs/INDEX.txt"; echo '[' > "$OUT/explain-results.json"; : > "$OUT/summary.txt"
FIRST=1

# start_holder NAME CMD...: start a background holder, wait until it prints "holding"/"held"
start_holder() {
  local log="$W/$1.holder"; shift
  "$@" > "$log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 80); do grep -q -E 'holding|held' "$log" 2>/dev/null && return 0; sleep 0.25; done
  echo "holder did not start: $(tail -3 "$log")"; return 1
}

# record NAME TRUE_CAUSE: run explain on logs/NAME.log, alone and with this machine (conditions still hold)
record() {
  local name=$1 truth=$2 log="$W/logs/$1.log"
  echo "$name.log	$truth" >> "$W/logs/INDEX.txt"
  local alone machine
  alone=$(timeout 60 $CLI explain "$log" --json --no-machine 2>/dev/null)
  machine=$(timeout 60 $CLI explain "$log" --json 2>/dev/null)
  top() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const d=JSON.parse(s);console.log(d.causes.slice(0,3).map(c=>c.id+" "+Math.round(c.confidence*100)+"%").join(", ")||"(none)")}catch{console.log("(explain failed)")}})'; }
  printf '%-28s true=%-30s\n   alone:   %s\n   machine: %s\n' "$name" "$truth" "$(echo "$alone" | top)" "$(echo "$machine" | top)" | tee -a "$OUT/summary.txt"
  [ $FIRST -eq 1 ] || echo ',' >> "$OUT/explain-results.json"; FIRST=0
  printf '{"scenario":"%s","truth":"%s","alone":%s,"machine":%s}\n' "$name" "$truth" "${alone:-null}" "${machine:-null}" >> "$OUT/explain-results.json"
}

CONV="import torch,sys; bs=int(sys.argv[1]); m=torch.nn.Sequential(torch.nn.Conv2d(3,64,7,2,3),torch.nn.ReLU(),torch.nn.Conv2d(64,256,3,1,1)).cuda(); x=torch.randn(bs,3,224,224,device='cuda'); y=m(x); y.sum().backward(); torch.cuda.synchronize(); print('ok', torch.cuda.max_memory_allocated()/2**30)"

echo "== 1. memory held by another process, at three levels (hog keeps 600 / 3000 / 12000 MiB free)"
for keep in 600 3000 12000; do
  start_holder "hog$keep" python3 "$HOG" "$keep" 60 || continue
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader > "$W/logs/held-keep$keep.log"
  timeout 60 python3 -c "$CONV" 128 >> "$W/logs/held-keep$keep.log" 2>&1
  echo "rc=$?" >> "$W/logs/held-keep$keep.log"
  record "held-keep$keep" "memory_held_by_other_process"
  cleanup
done

echo "== 2. JAX preallocation while a PyTorch process holds 60 GiB"
start_holder torch60 python3 -c "import torch,time; x=torch.empty(60*2**30,dtype=torch.uint8,device='cuda'); print('held',flush=True); time.sleep(60)" && {
  timeout 60 python3 -c "
import jax, jax.numpy as jnp
x = jnp.ones((64, 3, 224, 224)); k = jnp.ones((64, 3, 7, 7))
y = jax.lax.conv(x, k, (2, 2), 'SAME'); print(y.shape, float((y @ jnp.ones((y.shape[-1], 8))).sum()))
" > "$W/logs/jax-vs-torch60.log" 2>&1; echo "rc=$?" >> "$W/logs/jax-vs-torch60.log"
  record jax-vs-torch60 framework_preallocation
}
cleanup

echo "== 3. PyTorch fragmentation: a partly used cached segment full of holes, little free on the GPU"
start_holder hog6000 python3 "$HOG" 6000 60 && {
  timeout 60 python3 -c "
import torch
free, total = torch.cuda.mem_get_info()
big = torch.empty(free - 700 * 2**20, dtype=torch.uint8, device='cuda'); n = big.numel(); del big
xs = [torch.empty(48 * 2**20, dtype=torch.uint8, device='cuda') for _ in range(n // (48 * 2**20) - 1)]
del xs[::2]
print('holes made; reserved', torch.cuda.memory_reserved() / 2**30, 'allocated', torch.cuda.memory_allocated() / 2**30, flush=True)
y = torch.empty(900 * 2**20, dtype=torch.uint8, device='cuda')
print('no OOM')
" > "$W/logs/torch-fragmentation.log" 2>&1; echo "rc=$?" >> "$W/logs/torch-fragmentation.log"
  record torch-fragmentation allocator_fragmentation
}
cleanup

echo "== 4. the CUDA forward-compatibility libcuda on LD_LIBRARY_PATH"
{ ls -l /usr/local/cuda-13.0/compat/ 2>&1 | head; LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat timeout 60 python3 -c "import torch; print(torch.cuda.is_available()); print(torch.zeros(1, device='cuda'))"; echo "rc=$?"; } > "$W/logs/compat-libcuda.log" 2>&1
record compat-libcuda "driver_too_old (compat libcuda does not match the kernel driver)"

echo "== 5. a kernel built only for sm_100 run on the sm_90 H200"
cat > "$W/k.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { *p = 42; }
int main() {
  int *d; cudaMalloc(&d, 4);
  k<<<1, 1>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "CUDA error: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e)); return 1; }
  e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(e));
  return 0;
}
CU
{ nvcc -gencode arch=compute_100,code=sm_100 -o "$W/k" "$W/k.cu" 2>&1 && timeout 30 "$W/k"; echo "rc=$?"; } > "$W/logs/sm100-on-sm90.log" 2>&1
record sm100-on-sm90 gpu_arch_unsupported

echo "== 6. CUDA_VISIBLE_DEVICES=5 on a one-GPU machine (PyTorch, then JAX)"
{ CUDA_VISIBLE_DEVICES=5 timeout 60 python3 -c "import torch; print(torch.cuda.is_available()); torch.zeros(1).cuda()"; echo "rc=$?"; CUDA_VISIBLE_DEVICES=5 timeout 60 python3 -c "import jax; print(jax.devices())"; echo "rc=$?"; } > "$W/logs/cvd5.log" 2>&1
record cvd5 no_device_visible

echo "== 7. a system cuDNN 9.14 sub-library preloaded into PyTorch's cuDNN 9.19"
SYS_CNN=$(ls /usr/lib/x86_64-linux-gnu/libcudnn_cnn.so.9* 2>/dev/null | head -1)
{ echo "LD_PRELOAD=$SYS_CNN"; LD_PRELOAD=$SYS_CNN timeout 60 python3 -c "$CONV" 8; echo "rc=$?"; } > "$W/logs/cudnn-sublib-preload.log" 2>&1
record cudnn-sublib-preload library_conflict

cleanup
tar -czf "$OUT/explain-logs.tgz" -C "$W" logs
echo; echo "logs: $OUT/explain-logs.tgz ($(ls "$W/logs" | wc -l) files)"; echo ']' >> "$OUT/explain-results.json"
node -e 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log("explain-results.json: valid JSON")' "$OUT/explain-results.json"
