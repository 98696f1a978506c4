#!/usr/bin/env bash
# First data-gathering run on the H200: message strings of the installed builds, holders' /proc/PID/maps,
# the native cuDNN smoke-test prototype in the scenarios issue 17 names, and what torch/JAX really do
# with the system cuDNN first and with a malformed PYTORCH_CUDA_ALLOC_CONF. Packs $OUT/gather.tgz.
set -u
W=/tmp/gather; rm -rf $W; mkdir -p $W/strings $W/pysrc $W/holders $W/smoke $W/framework
PY=python3
SP=$($PY -c 'import site;print(site.getsitepackages()[0])')
echo "site-packages $SP" | tee $W/env.txt
$PY -c 'import sys,torch,jax,jaxlib;print(sys.version);print(torch.__version__,jax.__version__,jaxlib.__version__)' >>$W/env.txt 2>&1
ls $SP/jaxlib $SP/jax_plugins/* >> $W/env.txt 2>&1
nproc >> $W/env.txt; free -g >> $W/env.txt
# 1. strings of the libraries (in parallel)
libs=$(ls $SP/torch/lib/libtorch_cuda.so $SP/torch/lib/libc10_cuda.so $SP/torch/lib/libc10.so $SP/torch/lib/libtorch_python.so $SP/torch/lib/libtorch_cpu.so \
  $SP/jaxlib/*.so $SP/jaxlib/*/*.so $SP/jax_plugins/*/*.so $SP/nvidia/cudnn/lib/libcudnn.so.9 $SP/nvidia/cudnn/lib/libcudnn_graph.so.9 \
  $SP/nvidia/cudnn/lib/libcudnn_cnn.so.9 $SP/nvidia/cudnn/lib/libcudnn_ops.so.9 $SP/nvidia/cu13/lib/libcudart.so.13 $SP/nvidia/cu13/lib/libcublas.so.13 \
  $SP/cupy*/*.so $SP/cupy/cuda/*.so $SP/cupy_backends/cuda/api/*.so 2>/dev/null)
i=0; for l in $libs; do i=$((i+1)); ( timeout 60 $PY $(dirname "$0")/strings.py "$l" > "$W/strings/$(basename $l).$i.txt" 2>&1 ) & done; 
# 2. python-source messages
( cd $SP && timeout 60 grep -rnE --include='*.py' '(raise|warn|warnings\.warn|logger\.|logging\.|print)\(' torch/cuda torch/backends torch/utils/cpp_extension.py torch/_C/__init__.pyi torch/__init__.py jax/_src/xla_bridge.py jax/_src/lib/__init__.py jax_plugins cupy/cuda cupy/_environment.py 2>/dev/null | grep -iE 'cuda|cudnn|gpu|driver|device|memory|nvidia|version|plugin' > $W/pysrc/raise-lines.txt )
( cd $SP && tar cf - --exclude='*.so' --exclude='*.so.*' torch/utils/cpp_extension.py torch/cuda/__init__.py torch/cuda/memory.py torch/backends/cudnn/__init__.py jax/_src/xla_bridge.py $(find jax_plugins -name '*.py') 2>/dev/null | xz -6 > $W/pysrc/selected.tar.xz )
wait
# 3. holders: JAX with default preallocation, torch with live tensors and cache
cat > $W/jaxhold.py <<'PY'
import jax, jax.numpy as jnp, time, sys
x = jnp.ones((1024, 1024)); x.block_until_ready(); print("ready", flush=True); time.sleep(float(sys.argv[1]))
PY
cat > $W/torchhold.py <<'PY'
import torch, time, sys
a = torch.empty(int(10 * 2**30), dtype=torch.uint8, device="cuda"); b = torch.empty(int(6 * 2**30), dtype=torch.uint8, device="cuda"); del b
print("ready", torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), flush=True); time.sleep(float(sys.argv[1]))
PY
$PY $W/jaxhold.py 60 > $W/holders/jax.out 2>&1 & JP=$!
$PY $W/torchhold.py 60 > $W/holders/torch.out 2>&1 & TP=$!
for k in $(seq 1 60); do grep -q ready $W/holders/jax.out 2>/dev/null && grep -q ready $W/holders/torch.out 2>/dev/null && break; sleep 0.5; done
for p in $JP $TP; do
  cp /proc/$p/maps $W/holders/maps-$p.txt; cp /proc/$p/status $W/holders/status-$p.txt; tr '\0' ' ' < /proc/$p/cmdline > $W/holders/cmdline-$p.txt
  tr '\0' '\n' < /proc/$p/environ | cut -d= -f1 > $W/holders/environ-keys-$p.txt; ls -l /proc/$p/fd 2>/dev/null | grep -c nvidia > $W/holders/nvidia-fds-$p.txt
done
echo "jax=$JP torch=$TP" > $W/holders/pids.txt
nvidia-smi -q -x > $W/holders/smi-both.xml; nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv > $W/holders/apps.csv
# smoke test beside the two holders (most memory taken by JAX's 75%)
CUDNN=$SP/nvidia/cudnn/lib/libcudnn.so.9; CUDART=$SP/nvidia/cu13/lib/libcudart.so.13
S=$(dirname "$0")/cudnn_smoke.py
timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN > $W/smoke/beside-holders.jsonl 2>&1
kill $JP $TP; wait $JP $TP 2>/dev/null
# 4. smoke test scenarios
( time timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN ) > $W/smoke/idle.jsonl 2>&1
( time timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN ) > $W/smoke/idle2.jsonl 2>&1
LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN > $W/smoke/system-first.jsonl 2>&1
timeout 60 $PY $S --cudart $CUDART --cudnn /usr/lib/x86_64-linux-gnu/libcudnn.so.9 > $W/smoke/system-only.jsonl 2>&1
timeout 60 $PY $S --preload /usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9 --preload /usr/lib/x86_64-linux-gnu/libcudnn_cnn.so.9 --cudart $CUDART --cudnn $CUDNN > $W/smoke/preload-mixed.jsonl 2>&1
LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN > $W/smoke/compat.jsonl 2>&1
HOG=$(dirname "$0")/../../test/fixtures/h200/hog.py
$PY $HOG 700 60 > $W/smoke/hog.out 2>&1 & HP=$!
for k in $(seq 1 60); do nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits | awk '{exit !($1<2000)}' && break; sleep 0.5; done
timeout 60 $PY $S --cudart $CUDART --cudnn $CUDNN > $W/smoke/hog700.jsonl 2>&1
# 5. frameworks in the same settings, fresh processes, the user's path first
cat > $W/tconv.py <<'PY'
import torch; x = torch.randn(8, 16, 64, 64, device="cuda"); w = torch.randn(32, 16, 3, 3, device="cuda")
print("torch conv ok", torch.nn.functional.conv2d(x, w).shape, torch.backends.cudnn.version())
PY
cat > $W/jconv.py <<'PY'
import jax, jax.numpy as jnp
x = jnp.ones((8, 16, 64, 64)); w = jnp.ones((32, 16, 3, 3))
y = jax.lax.conv(x, w, (1, 1), "SAME"); y.block_until_ready(); print("jax conv ok", y.shape)
PY
( timeout 90 $PY $W/tconv.py; echo "exit $?" ) > $W/framework/torch-hog700.txt 2>&1
( timeout 90 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-hog700.txt 2>&1
kill $HP; wait $HP 2>/dev/null
( LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu timeout 90 $PY $W/tconv.py; echo "exit $?" ) > $W/framework/torch-system-first.txt 2>&1
( LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu timeout 90 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-system-first.txt 2>&1
( PYTORCH_CUDA_ALLOC_CONF=expandable_segment:True,garbage timeout 60 $PY -c 'import torch; print(torch.zeros(1, device="cuda"))'; echo "exit $?" ) > $W/framework/torch-allocconf-garbage.txt 2>&1
( PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True timeout 60 $PY -c 'import torch; print(torch.zeros(1, device="cuda"))'; echo "exit $?" ) > $W/framework/torch-allocconf-good.txt 2>&1
( PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:abc timeout 60 $PY -c 'import torch; print(torch.zeros(1, device="cuda"))'; echo "exit $?" ) > $W/framework/torch-allocconf-badvalue.txt 2>&1
( PYTORCH_CUDA_ALLOC_CONF=foo:1 timeout 60 $PY -c 'import torch; print(torch.zeros(1, device="cuda"))'; echo "exit $?" ) > $W/framework/torch-allocconf-unknownkey.txt 2>&1
( XLA_PYTHON_CLIENT_MEM_FRACTION=1.5 timeout 60 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-memfrac-1.5.txt 2>&1
( XLA_PYTHON_CLIENT_MEM_FRACTION=abc timeout 60 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-memfrac-abc.txt 2>&1
( XLA_PYTHON_CLIENT_PREALLOCATE=maybe timeout 60 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-prealloc-maybe.txt 2>&1
( LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat timeout 60 $PY $W/jconv.py; echo "exit $?" ) > $W/framework/jax-compat.txt 2>&1
ls -la /usr/local/cuda-13.0/compat > $W/framework/compat-ls.txt 2>&1
du -sh $W/*; du -s $W/strings/* | sort -n | tail -5
for f in $W/strings/*.txt; do head -c 3000000 "$f" > "$f.cut" && mv "$f.cut" "$f"; done
tar cf - -C $W strings | xz -T0 -9 > $OUT/strings.tar.xz
tar cf - -C $W --exclude=strings . | xz -T0 -9 > $OUT/rest.tar.xz
ls -la $OUT; head -c 3000 $W/smoke/idle.jsonl; echo; cat $W/framework/*.txt | cut -c1-300 | tail -80
