#!/usr/bin/env bash
# Issue 25 item 6: failures caused on purpose on the GPU machine, one log per job, each with a JSON sidecar
# (label, framework, scenario, exit code, how it was produced). Out: $OUT/repro-logs.tar.gz (logs/ID.log,
# logs/ID.json, machine.txt, summary.txt, run.txt) and $OUT/summary.txt.
#
#   OUT=$OUT bash gpu-lab/repro/run.sh              # on the GPU machine (no Node needed), about 7 minutes
#   REPRO_DRY=1 bash gpu-lab/repro/run.sh           # here: fake python3/nvcc/nvidia-smi from gpu-lab/repro/fake
#   REPRO_ONLY='held|too-big' ...                   # only the phases whose name matches (grep -E)
#
# Phases, in order: light (failures at start-up: settings, visibility, libraries, driver, arch; side by side),
# too-big (each request larger than the whole GPU, a few side by side), frag (PyTorch's allocator fragmented; the
# whole GPU, then a memory fraction side by side), prealloc (a JAX process with its preallocation, jobs beside it),
# held (one holder process, resized to keep several amounts free, jobs side by side against it; a stopped CuPy
# holder), twofw (two frameworks in one process, one at a time). Every job has a time limit, none starts when it could end past
# REPRO_HARD_S, and everything started here is ended on exit. A job that did not fail, or failed without the text
# its scenario predicts, is kept and marked (sidecar "staged": false) for the labeller.
#
# The machine at each failure: with Node on PATH (`source .gpu-lab/env.sh`) and dist/cli.js built, every job that
# fails gets `node dist/cli.js snapshot` beside its log (logs/ID.snapshot.json), taken while the staged holders still
# live. A Python job is read at its failure, its process still alive with its memory (hook/sitecustomize.py holds it
# after Python printed the exception, as `gpu-env-doctor run` snapshots a job when it shows it is failing; the job's
# processes are marked as the job: mark-job.mjs); other jobs right after they exit. The snapshot runs with the job's
# staged variables but the loader's (LD_PRELOAD, LD_LIBRARY_PATH: they would change the snapshot's own programs, not
# describe the job's). About 0.3 s each. REPRO_SNAPSHOT=0 turns it off; without Node, summary.txt says so.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/repro-out}; mkdir -p "$OUT"
W=${REPRO_WORK:-/tmp/ged-repro}; rm -rf "$W"; mkdir -p "$W/logs" "$W/bin" "$W/cwd" "$W/tree"
LOGS=$W/logs
PAR=${REPRO_PAR:-12}
HARD=${REPRO_HARD_S:-415}
T0=$(date +%s)
PIDS=$W/started.pids; : > "$PIDS"; : > "$W/jobs.txt"
if [ -n "${REPRO_DRY:-}" ]; then export PATH="$HERE/fake:$PATH" REPRO_FAKE_STATE="$W/fake"; mkdir -p "$W/fake"; fi
PY=${PY:-python3}
J=$HERE/jobs
REPO=$(cd "$HERE/../.." && pwd)
SNAP_CLI=${REPRO_CLI:-$REPO/dist/cli.js}
if [ "${REPRO_SNAPSHOT:-1}" = 0 ]; then SNAPS="off (REPRO_SNAPSHOT=0)"
elif ! command -v node > /dev/null 2>&1; then SNAPS="off: no node on PATH (source .gpu-lab/env.sh first)"
elif [ ! -f "$SNAP_CLI" ]; then SNAPS="off: no $SNAP_CLI (npm run build, and carry dist)"
else SNAPS=on; fi
mkdir -p "$W/marks"
CU=$HERE/cuda
BASE_LLP=${LD_LIBRARY_PATH:-}
SYS=/usr/lib/x86_64-linux-gnu
CUDA=${CUDA_DIR:-/usr/local/cuda-13.0}
CULIB=$CUDA/targets/x86_64-linux/lib
LDSO=/lib64/ld-linux-x86-64.so.2
NOPRE=XLA_PYTHON_CLIENT_PREALLOCATE=false
ONCUDA=JAX_PLATFORMS=cuda
# the caching allocator's segments as they are by default, stated (a newer default of expandable segments would
# make the fragmentation jobs pass)
NOEXP=PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False

elapsed() { echo $(( $(date +%s) - T0 )); }
say() { echo "[$(elapsed)s] $*" | tee -a "$W/run.txt"; }

# started.pids: a PID per line when started, "-PID" when it ended (so a PID reused later is never touched)
live_pids() { awk '/^-/ { done[substr($0, 2)] = 1; next } NF { p[NR] = $0 } END { for (i in p) if (!(p[i] in done)) print p[i] }' "$PIDS"; }
cleanup() {
  # End what this script started and is still running, by recorded PID: holders, and each job's timeout with its
  # process group (timeout leads a group of its own).
  exec 7>&- 2>/dev/null
  local p live; live=$(live_pids)
  for p in $live; do kill -CONT -- "-$p" 2>/dev/null; kill -TERM -- "-$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done
  [ -n "$live" ] && sleep 1
  for p in $live; do kill -KILL -- "-$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  true
}
trap cleanup EXIT
trap 'exit 143' TERM INT
trap '' PIPE

jesc() { local s=$1; s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\n'/\\n}; s=${s//$'\t'/\\t}; s=${s//$'\r'/\\r}; printf '%s' "$s"; }

# snapshot_of ID PID WHEN -- CMD...: the machine now into logs/ID.snapshot.json (PID: the failed process, still
# alive, marked as the job), with CMD's staged variables less the loader's; SNAP_AT says what was kept.
snapshot_of() {
  local id=$1 pid=$2 when=$3 a f=$LOGS/$1.snapshot.json; shift 3; [ "${1:-}" = -- ] && shift
  local envs=()
  if [ "${1:-}" = env ]; then
    shift; for a in "$@"; do case $a in LD_PRELOAD=*|LD_LIBRARY_PATH=*) ;; *=*) envs+=("$a") ;; *) break ;; esac; done
  fi
  if ( cd "$W/cwd" && exec env ${envs[@]+"${envs[@]}"} timeout -k 2 20 node "$SNAP_CLI" snapshot --timeout 10 ) > "$f.tmp" 2> "$f.err" &&
     { [ -z "$pid" ] || node "$HERE/mark-job.mjs" "$f.tmp" "$pid" 2>> "$f.err"; }; then
    mv "$f.tmp" "$f"; SNAP_AT=$when
  else
    SNAP_AT="failed: $(tail -1 "$f.err" | cut -c1-120)"; rm -f "$f.tmp"
  fi
  [ -s "$f.err" ] || rm -f "$f.err"
}

# runjob ID LABEL FRAMEWORK SECONDS EXPECT HOW -- CMD...: runs CMD (env K=V ... first for the staged settings) from
# an empty folder, stdout and stderr together into logs/ID.log exactly as printed, then the sidecar logs/ID.json.
# EXPECT: an extended regex (case-insensitive) the failure's text must show for the job to count as staged.
runjob() {
  local id=$1 label=$2 fw=$3 t=$4 expect=$5 how=$6; shift 6; [ "${1:-}" = -- ] && shift
  local log=$LOGS/$id.log s e rc seen=false timed=false cmd="" a envs="" mark=$W/marks/$id SNAP_AT=none
  s=$(date +%s%N)
  if [ "$SNAPS" = on ]; then
    ( cd "$W/cwd" && REPRO_FAIL_MARK=$mark PYTHONPATH=$HERE/hook${PYTHONPATH:+:$PYTHONPATH} exec timeout -k 5 "$t" "$@" ) > "$log" 2>&1 < /dev/null &
  else
    ( cd "$W/cwd" && exec timeout -k 5 "$t" "$@" ) > "$log" 2>&1 < /dev/null &
  fi
  local tp=$!; echo "$tp" >> "$PIDS"
  if [ "$SNAPS" = on ]; then
    # a Python job that failed waits (at most 8 s) with its memory until the machine is read
    while kill -0 "$tp" 2>/dev/null; do
      if [ -s "$mark" ]; then snapshot_of "$id" "$(head -1 "$mark")" at-failure -- "$@"; : > "$mark.done"; break; fi
      sleep 0.05
    done
  fi
  wait "$tp"; rc=$?; echo "-$tp" >> "$PIDS"
  e=$(date +%s%N)
  [ "$SNAPS" = on ] && [ "$rc" != 0 ] && [ "$SNAP_AT" = none ] && snapshot_of "$id" "" after-exit -- "$@"
  { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && timed=true
  grep -Eiq -- "$expect" "$log" 2>/dev/null && seen=true
  for a in "$@"; do cmd+="${cmd:+ }$a"; done
  if [ "$1" = env ]; then shift; for a in "$@"; do case $a in *=*) envs+="${envs:+,}\"$(jesc "$a")\"" ;; *) break ;; esac; done; fi
  local staged=false; [ "$rc" != 0 ] && [ "$timed" = false ] && [ "$seen" = true ] && staged=true
  printf '{"id":"%s","label":"%s","framework":"%s","scenario":"%s","phase":"%s","how":"%s","env":[%s],"command":"%s","exit":%s,"timed_out":%s,"expected_text":"%s","expected_seen":%s,"staged":%s,"seconds":%s,"snapshot":"%s"}\n' \
    "$(jesc "$id")" "$label" "$fw" "$(jesc "${id%%.*}")" "$PHASE" "$(jesc "$how")" "$envs" "$(jesc "$cmd")" "$rc" "$timed" "$(jesc "$expect")" "$seen" "$staged" \
    "$(( (e - s) / 1000000 ))e-3" "$(jesc "$SNAP_AT")" > "$LOGS/$id.json"
  echo "$id rc=$rc staged=$staged" >> "$W/jobs.txt"
}

# the jobs' sidecars (logs/ID.json), not their snapshots (logs/ID.snapshot.json)
sidecars() { ls "$LOGS"/*.json 2>/dev/null | grep -v '\.snapshot\.json$'; }

# A pool of background jobs: P waits for a free slot (PAR at once), drain waits for all of them.
POOL=()
slot() { local p alive; while :; do alive=(); for p in "${POOL[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done; POOL=("${alive[@]}"); [ "${#POOL[@]}" -lt "$PAR" ] && return; sleep 0.2; done; }
P() {
  # P ID LABEL FW SECONDS EXPECT HOW -- CMD...: a job in the pool, unless it could end past the hard limit
  if [ $(( $(elapsed) + $4 + 5 )) -gt "$HARD" ]; then echo "$1 (${2}): no time left" >> "$W/not-run.txt"; return; fi
  slot; runjob "$@" & POOL+=("$!")
}
drain() { local p; for p in "${POOL[@]}"; do wait "$p" 2>/dev/null; done; POOL=(); }
# S: the same, in the foreground (jobs that need the whole GPU)
S() { if [ $(( $(elapsed) + $4 + 5 )) -gt "$HARD" ]; then echo "$1 (${2}): no time left" >> "$W/not-run.txt"; return; fi; runjob "$@"; }
# the background holder of the memory phases (PID in HOLDER): continued if stopped, ended, reaped
stop_holder() { [ -n "${HOLDER:-}" ] && { kill -CONT "$HOLDER" 2>/dev/null; kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null; echo "-$HOLDER" >> "$PIDS"; }; HOLDER=; sleep 1; }
wait_for() { local i; for i in $(seq 1 $(( $3 * 5 ))); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done; return 1; }
phase() { PHASE=$1; if [ -n "${REPRO_ONLY:-}" ] && ! printf '%s\n' "$1" | grep -Eq -- "$REPRO_ONLY"; then return 1; fi; say "phase $1 (jobs so far: $(sidecars | wc -l))"; return 0; }

# What the failures' texts show, per class (an extended regex, case-insensitive)
X_OOM='out of memory|OutOfMemory|RESOURCE_EXHAUSTED|cudaErrorMemoryAllocation|memory allocation'
X_NOVIS='No CUDA GPUs|no CUDA-capable device|cudaErrorNoDevice|CUDA_ERROR_NO_DEVICE|No visible GPU|Unknown backend|no supported devices|not found.*gpu|NoDevice|invalid device ordinal'
X_CONF='alloc|config|expected|unrecognized|stoull|fraction|could not convert|invalid|must be|unknown|backend|ValueError'
X_CUDNN='cuDNN version incompatib|Loaded runtime CuDNN library|found runtime version|CUDNN_STATUS_VERSION_MISMATCH|cudnn.*version'
X_SUB='SUBLIBRARY|VERSION_MISMATCH|version mismatch|undefined symbol|version `|CUDNN_STATUS|cuDNN error|cudnn'
X_MISS='cannot open shared object file|No such file or directory'
X_DRV='803|unsupported display driver|SystemDriverMismatch|SYSTEM_DRIVER_MISMATCH|UNSUPPORTED_PTX_VERSION|unsupported toolchain|driver'
X_ARCH='no kernel image|NoKernelImage|NO_BINARY_FOR_GPU|NO_KERNEL_IMAGE|no binary for gpu'
X_TK='Unsupported \.version|ptxas'
X_ASSERT='device-side assert|Assertion|CUDA_ERROR_ASSERT|out of bounds|probability tensor'

# --- setup ---------------------------------------------------------------------------------------------------
say "repro on $(uname -n) into $OUT (work folder $W)"
{ timeout 30 nvidia-smi --query-gpu=name,memory.total,driver_version,uuid --format=csv,noheader
  timeout 60 "$PY" -c 'import sys, torch, jax, cupy; print(sys.version.split()[0], "torch", torch.__version__, "jax", jax.__version__, "cupy", cupy.__version__)'
  timeout 30 nvcc --version | tail -2; echo "LD_LIBRARY_PATH=$BASE_LLP"
  echo "snapshots at the failures: $SNAPS$( [ "$SNAPS" = on ] && echo " (node $(node --version), $SNAP_CLI)")"; } > "$W/machine.txt" 2>&1 &
MACH=$!
# Programs built here (side by side, 90 s at most): kernels for other architectures (no PTX), module images,
# and programs linked to one CUDA library each whose run-time search path is a copied tree missing it.
build() { local name=$1; shift; timeout -k 3 90 nvcc "$@" > "$W/bin/$name.build.txt" 2>&1 || echo "build $name failed: $(tail -2 "$W/bin/$name.build.txt" | tr '\n' ' ')" >> "$W/run.txt"; }
LCUDA=(-L"$CULIB/stubs" -L"$CUDA/lib64/stubs" -lcuda)
(
  for a in 75 80 86 89 100 120; do
    build "launch_sm$a" -gencode "arch=compute_$a,code=sm_$a" -o "$W/bin/launch_sm$a" "$CU/launch.cu" &
    build "vecadd_sm$a" -gencode "arch=compute_$a,code=sm_$a" -o "$W/bin/vecadd_sm$a" "$CU/vecadd.cu" &
  done
  wait
  build k100cubin -cubin -gencode arch=compute_100,code=sm_100 -o "$W/bin/k_sm100.cubin" "$CU/k.cu" &
  build k120cubin -cubin -gencode arch=compute_120,code=sm_120 -o "$W/bin/k_sm120.cubin" "$CU/k.cu" &
  build k80cubin -cubin -gencode arch=compute_80,code=sm_80 -o "$W/bin/k_sm80.cubin" "$CU/k.cu" &
  build kptx -ptx -arch=compute_90 -o "$W/bin/k.ptx" "$CU/k.cu" &
  build ptxjit -o "$W/bin/ptxjit" "$CU/ptxjit.cu" "${LCUDA[@]}" &
  build vecadd -o "$W/bin/vecadd" "$CU/vecadd.cu" &
  for t in gemm:cublas fft:cufft rand:curand solver:cusolver sparse:cusparse nvrtc:nvrtc; do
    build "$t" -o "$W/bin/${t%%:*}" "$CU/${t%%:*}.cu" -l"${t##*:}" -Xlinker -rpath -Xlinker "$W/tree/${t%%:*}" &
  done
  build gemm2 -o "$W/bin/gemm2" "$CU/gemm.cu" -lcublas -Xlinker -rpath -Xlinker "$W/tree/gemm2" &
  build solver2 -o "$W/bin/solver2" "$CU/solver.cu" -lcusolver -Xlinker -rpath -Xlinker "$W/tree/solver2" &
  build vecadd_shared -o "$W/bin/vecadd_shared" "$CU/vecadd.cu" -cudart shared -Xlinker -rpath -Xlinker "$W/tree/vecadd_shared" &
  build sparse2 -o "$W/bin/sparse2" "$CU/sparse.cu" -lcusparse -Xlinker -rpath -Xlinker "$W/tree/sparse2" &
  build gemm3 -o "$W/bin/gemm3" "$CU/gemm.cu" -lcublas -Xlinker -rpath -Xlinker "$W/tree/gemm3" &
  build solver3 -o "$W/bin/solver3" "$CU/solver.cu" -lcusolver -Xlinker -rpath -Xlinker "$W/tree/solver3" &
  wait
  # module images newer than this toolkit and driver: the PTX's .version raised by one, by two, and to the next major
  if [ -f "$W/bin/k.ptx" ]; then
    v=$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' "$W/bin/k.ptx" | head -1)
    set -- $v
    if [ -n "${1:-}" ]; then
      for nv in "$1.$(( $2 + 1 ))" "$1.$(( $2 + 2 ))" "$(( $1 + 1 )).0"; do sed "s/^\.version .*/.version $nv/" "$W/bin/k.ptx" > "$W/bin/k_isa$nv.ptx"; done
    fi
  fi
  # the copied trees: empty, or holding only the library whose own dependencies are then missing
  mkdir -p "$W/tree"/{gemm,fft,rand,solver,sparse,nvrtc,gemm2,solver2,vecadd_shared,sparse2,gemm3,solver3}
  cp -L "$CULIB/libcublas.so.13" "$W/tree/gemm2/" 2>/dev/null
  cp -L "$CULIB/libcusolver.so.12" "$W/tree/solver2/" 2>/dev/null
  cp -L "$CULIB/libcusparse.so.12" "$W/tree/sparse2/" 2>/dev/null
  cp -L "$CULIB/libcublasLt.so.13" "$W/tree/gemm3/" 2>/dev/null
  for l in libcusolver.so.12 libcublas.so.13 libcublasLt.so.13 libnvJitLink.so.13; do cp -L "$CULIB/$l" "$W/tree/solver3/" 2>/dev/null; done
  echo done > "$W/bin/BUILT"
) > "$W/build.log" 2>&1 &
BUILD=$!

# --- light: failures at start-up, side by side --------------------------------------------------------------
if phase light; then
  # configuration_invalid: PyTorch's allocator settings (abort at import or fail at the first CUDA call)
  i=0
  for v in "expandable_segment:True,garbage" "expandable_segments=True" "expandable_segments:true" "foo:1" \
           "max_split_size_mb:abc" "max_split_size_mb:10" ",expandable_segments:True" "garbage_collection_threshold:1.5" \
           "roundup_power2_divisions:3" "backend:cudaMallocAsyncc" "expandable_segments:True;max_split_size_mb:128" "max_split_size_mb:-512"; do
    i=$((i + 1)); ops=(init conv2d matmul resnet); op=${ops[$(( i % 4 ))]}
    P "config.torch-allocconf-$i" configuration_invalid torch 60 "$X_CONF" "PYTORCH_CUDA_ALLOC_CONF=$v, a torch $op" -- \
      env "PYTORCH_CUDA_ALLOC_CONF=$v" "$PY" "$J/t_op.py" "$op" 8 float32
  done
  P config.torch-allocconf-cuda-name configuration_invalid torch 60 "$X_CONF" "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:64MB" -- \
    env "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:64MB" "$PY" "$J/t_op.py" lstm 512 float32
  # configuration_invalid: JAX's memory settings (the backend does not start; JAX_PLATFORMS=cuda or a GPU asked by name)
  i=0
  for v in "XLA_PYTHON_CLIENT_MEM_FRACTION=abc" "XLA_PYTHON_CLIENT_MEM_FRACTION=1,5" "XLA_PYTHON_CLIENT_MEM_FRACTION=75%" \
           "XLA_PYTHON_CLIENT_MEM_FRACTION=0.8GB" "XLA_PYTHON_CLIENT_ALLOCATOR=foo" "XLA_PYTHON_CLIENT_ALLOCATOR=cuda-async"; do
    i=$((i + 1))
    ops=(conv matmul mlp); op=${ops[$(( i % 3 ))]}
    P "config.jax-mem-$i" configuration_invalid jax 60 "$X_CONF" "$v, JAX_PLATFORMS=cuda (else JAX falls back to the CPU and only logs it at INFO), a JAX $op" -- \
      env "$v" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" "$op" 1 float32
  done
  # configuration_invalid: CuPy's memory limit
  P config.cupy-limit-1 configuration_invalid cupy 60 "$X_CONF" "CUPY_GPU_MEMORY_LIMIT=abc, a CuPy matmul" -- env CUPY_GPU_MEMORY_LIMIT=abc "$PY" "$J/c_op.py" matmul 0.5 float32
  P config.cupy-limit-2 configuration_invalid cupy 60 "$X_CONF" "CUPY_GPU_MEMORY_LIMIT=50 %, a CuPy alloc" -- env "CUPY_GPU_MEMORY_LIMIT=50 %" "$PY" "$J/c_op.py" alloc 1 float32

  # no_device_visible: CUDA_VISIBLE_DEVICES that names no GPU of this machine
  UUID=$(timeout 30 nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | head -1)
  i=0
  for v in "" "-1" "1" "2" "GPU-00000000-0000-0000-0000-000000000000" "GPU-ffffffff" "MIG-GPU-0/1/0" "none"; do
    i=$((i + 1)); ops=(conv2d matmul lstm init); op=${ops[$(( i % 4 ))]}
    P "novis.torch-$i" no_device_visible torch 60 "$X_NOVIS" "CUDA_VISIBLE_DEVICES=\"$v\", a torch $op" -- env "CUDA_VISIBLE_DEVICES=$v" "$PY" "$J/t_op.py" "$op" 4 float32
    case $i in 1|2|3|5|7) P "novis.jax-$i" no_device_visible jax 60 "$X_NOVIS" "CUDA_VISIBLE_DEVICES=\"$v\", JAX_PLATFORMS=cuda" -- env "CUDA_VISIBLE_DEVICES=$v" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 4 float32 ;; esac
    case $i in 1|2|4|5|6) P "novis.cupy-$i" no_device_visible cupy 60 "$X_NOVIS" "CUDA_VISIBLE_DEVICES=\"$v\", a CuPy job" -- env "CUDA_VISIBLE_DEVICES=$v" "$PY" "$J/c_op.py" matmul 0.5 float32 ;; esac
  done
  P novis.jax-fallback-1 no_device_visible jax 60 "$X_NOVIS" 'CUDA_VISIBLE_DEVICES="", a JAX job asking for the GPU by name' -- env CUDA_VISIBLE_DEVICES= "$NOPRE" "$PY" "$J/j_op.py" matmul 0.1 float32 require-gpu
  P novis.jax-fallback-2 no_device_visible jax 60 "$X_NOVIS" 'CUDA_VISIBLE_DEVICES=-1, a JAX job asking for the GPU by name' -- env CUDA_VISIBLE_DEVICES=-1 "$NOPRE" "$PY" "$J/j_op.py" mlp 1024 float32 require-gpu
  [ -n "$UUID" ] && P novis.torch-uuid-typo no_device_visible torch 60 "$X_NOVIS" "CUDA_VISIBLE_DEVICES=this GPU's UUID with its last digit changed" -- \
    env "CUDA_VISIBLE_DEVICES=${UUID%?}$( [ "${UUID: -1}" = 0 ] && echo 1 || echo 0)" "$PY" "$J/t_op.py" conv2d 4 float32

  # library_conflict: the system cuDNN 9.14 loads ahead of the one the wheel bundles (pip's 9.19): two copies
  # compete (torch reports it as its version check, naming a conflicting cuDNN in LD_LIBRARY_PATH)
  SYSLLP="LD_LIBRARY_PATH=$SYS${BASE_LLP:+:$BASE_LLP}"
  P cudnnver.torch-llp-conv2d library_conflict torch 60 "$X_CUDNN" "LD_LIBRARY_PATH puts the system cuDNN first; a conv2d logging cudnn.version()" -- env "$SYSLLP" "$PY" "$J/t_op.py" conv2d 16 float32 cudnn-version
  P cudnnver.torch-llp-lstm library_conflict torch 60 "$X_CUDNN" "LD_LIBRARY_PATH puts the system cuDNN first; an LSTM (nn.LSTM checks cuDNN)" -- env "$SYSLLP" "$PY" "$J/t_op.py" lstm 512 float32
  P cudnnver.torch-llp-gru library_conflict torch 60 "$X_CUDNN" "LD_LIBRARY_PATH puts the system cuDNN first; a GRU in half precision" -- env "$SYSLLP" "$PY" "$J/t_op.py" gru 256 float16
  P cudnnver.torch-llp-conv1d library_conflict torch 60 "$X_CUDNN" "LD_LIBRARY_PATH puts the system cuDNN first; a conv1d with cudnn.benchmark logging the version" -- env "$SYSLLP" "$PY" "$J/t_op.py" conv1d 64 float16 benchmark cudnn-version
  P cudnnver.torch-llp-conv3d library_conflict torch 60 "$X_CUDNN" "LD_LIBRARY_PATH puts the system cuDNN first; a conv3d in bfloat16 logging the version" -- env "$SYSLLP" "$PY" "$J/t_op.py" conv3d 4 bfloat16 cudnn-version
  P cudnnver.torch-preload-conv2d library_conflict torch 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9; a conv2d logging the version" -- env "LD_PRELOAD=$SYS/libcudnn.so.9" "$PY" "$J/t_op.py" conv2d 8 float16 cudnn-version
  P cudnnver.torch-preload-lstm library_conflict torch 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9; an LSTM" -- env "LD_PRELOAD=$SYS/libcudnn.so.9" "$PY" "$J/t_op.py" lstm 1024 float32
  P cudnnver.torch-preload-resnet library_conflict torch 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9; a ResNet-50 logging the version" -- env "LD_PRELOAD=$SYS/libcudnn.so.9" "$PY" "$J/t_op.py" resnet 8 float32 cudnn-version
  P cudnnver.jax-preload-conv library_conflict jax 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9; JAX_PLATFORMS=cuda, a JAX conv" -- env "LD_PRELOAD=$SYS/libcudnn.so.9" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 8 float32
  P cudnnver.jax-preload-conv16 library_conflict jax 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9 and its graph library; a JAX conv in half precision" -- env "LD_PRELOAD=$SYS/libcudnn.so.9:$SYS/libcudnn_graph.so.9" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 16 float16
  P cudnnver.jax-preload-bf16 library_conflict jax 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn.so.9; JAX_PLATFORMS=cuda, a JAX conv in bfloat16" -- env "LD_PRELOAD=$SYS/libcudnn.so.9" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 4 bfloat16

  # library_conflict: one cuDNN sub-library from the system copy (9.14) beside pip's 9.19
  i=0
  for sub in graph ops cnn adv engines_precompiled engines_runtime_compiled heuristic; do
    i=$((i + 1)); ops=(conv2d lstm conv3d conv1d conv2d resnet batchnorm); op=${ops[$(( i - 1 ))]}
    P "sublib.torch-$sub" library_conflict torch 60 "$X_SUB" "LD_PRELOAD of the system libcudnn_$sub.so.9 (9.14) into torch with pip's cuDNN 9.19; a $op" -- \
      env "LD_PRELOAD=$SYS/libcudnn_$sub.so.9" "$PY" "$J/t_op.py" "$op" 16 float32
  done
  for sub in graph ops engines_precompiled cnn; do
    case $sub in heuristic|engines_runtime_compiled) ;; *) continue ;; esac
    P "sublib.jax-$sub" library_conflict jax 60 "$X_SUB" "LD_PRELOAD of the system libcudnn_$sub.so.9 (9.14) into JAX with pip's cuDNN 9.19; a conv" -- \
      env "LD_PRELOAD=$SYS/libcudnn_$sub.so.9" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 8 float32
  done

  # library_conflict: the forward-compat libcuda (older than the kernel driver) ahead of the driver's own libcuda,
  # which matches the kernel module: error 803 (the driver is not too old; the compat copy shadows it)
  CLLP="LD_LIBRARY_PATH=$CUDA/compat${BASE_LLP:+:$BASE_LLP}"
  P driver.torch-compat-conv2d library_conflict torch 60 "$X_DRV" "LD_LIBRARY_PATH puts $CUDA/compat first; a torch conv2d" -- env "$CLLP" "$PY" "$J/t_op.py" conv2d 8 float32
  P driver.torch-compat-matmul library_conflict torch 60 "$X_DRV" "compat libcuda first; a torch matmul in bfloat16" -- env "$CLLP" "$PY" "$J/t_op.py" matmul 0.5 bfloat16
  P driver.torch-compat-resnet library_conflict torch 60 "$X_DRV" "compat libcuda first; a ResNet-50 training step" -- env "$CLLP" "$PY" "$J/t_op.py" resnet 16 float32 train
  P driver.torch-compat-preload library_conflict torch 60 "$X_DRV" "LD_PRELOAD of the compat libcuda.so.1; a torch LSTM" -- env "LD_PRELOAD=$CUDA/compat/libcuda.so.1" "$PY" "$J/t_op.py" lstm 256 float32
  P driver.jax-compat-conv library_conflict jax 60 "$X_DRV" "compat libcuda first; JAX_PLATFORMS=cuda, a conv" -- env "$CLLP" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 8 float32
  P driver.jax-compat-mlp library_conflict jax 60 "$X_DRV" "compat libcuda first; JAX_PLATFORMS=cuda, a JAX MLP" -- env "$CLLP" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" mlp 1024 float32
  P driver.cupy-compat-matmul library_conflict cupy 60 "$X_DRV" "compat libcuda first; a CuPy matmul" -- env "$CLLP" "$PY" "$J/c_op.py" matmul 0.5 float32
  P driver.cupy-compat-fft library_conflict cupy 60 "$X_DRV" "compat libcuda first; a CuPy FFT" -- env "$CLLP" "$PY" "$J/c_op.py" fft 0.5 float32
fi

# --- light, part 2: the programs built above ---------------------------------------------------------------------
wait "$BUILD" 2>/dev/null
if phase light-built; then
  CLLP="LD_LIBRARY_PATH=$CUDA/compat${BASE_LLP:+:$BASE_LLP}"
  [ -x "$W/bin/vecadd" ] && P driver.cuda-compat-vecadd library_conflict cuda 30 "$X_DRV" "compat libcuda first; vector addition (CUDA runtime)" -- env "$CLLP" "$W/bin/vecadd"
  [ -x "$W/bin/ptxjit" ] && P driver.cuda-compat-ptxjit library_conflict cuda 30 "$X_DRV" "compat libcuda first; the driver API (cuInit)" -- env "$CLLP" "$W/bin/ptxjit" "$W/bin/k.ptx"
  for f in "$W"/bin/k_isa*.ptx; do
    [ -f "$f" ] || continue; nv=${f##*k_isa}; nv=${nv%.ptx}
    [ -x "$W/bin/ptxjit" ] && P "driver.cuda-ptx-isa$nv" driver_too_old cuda 30 "$X_DRV" "the driver JIT given PTX .version $nv (newer than it supports): cuModuleLoadDataEx" -- "$W/bin/ptxjit" "$f"
    P "driver.cupy-ptx-isa$nv" driver_too_old cupy 60 "$X_DRV" "CuPy loads PTX .version $nv (newer than the driver supports)" -- "$PY" "$J/mod_load.py" "$f"
    P "toolkit.ptxas-isa$nv" cuda_toolkit_mismatch cuda 30 "$X_TK" "ptxas of this toolkit assembles PTX .version $nv (from a newer toolkit)" -- ptxas -arch=sm_90 -o "$W/cwd/k.cubin" "$f"
    P "toolkit.nvcc-isa$nv" cuda_toolkit_mismatch cuda 30 "$X_TK" "nvcc -cubin of PTX .version $nv (from a newer toolkit)" -- nvcc -cubin -arch=sm_90 -o "$W/cwd/k2.cubin" "$f"
  done
  # gpu_arch_unsupported: code only for other architectures (no PTX) on the H200 (sm_90)
  for a in 75 80 86 89 100 120; do
    [ -x "$W/bin/launch_sm$a" ] && P "arch.cuda-launch-sm$a" gpu_arch_unsupported cuda 30 "$X_ARCH" "a kernel built with -gencode arch=compute_$a,code=sm_$a only" -- "$W/bin/launch_sm$a"
    [ -x "$W/bin/vecadd_sm$a" ] && P "arch.cuda-vecadd-sm$a" gpu_arch_unsupported cuda 30 "$X_ARCH" "vector addition built for sm_$a only (CUDA samples' error check)" -- "$W/bin/vecadd_sm$a"
  done
  for c in sm100 sm120 sm80; do
    [ -f "$W/bin/k_$c.cubin" ] || continue
    P "arch.cupy-cubin-$c" gpu_arch_unsupported cupy 60 "$X_ARCH" "CuPy loads a cubin built for $c (Module.load)" -- "$PY" "$J/mod_load.py" "$W/bin/k_$c.cubin"
    P "arch.cupy-rawmodule-$c" gpu_arch_unsupported cupy 60 "$X_ARCH" "CuPy RawModule(path=) of a cubin built for $c" -- "$PY" "$J/mod_load.py" "$W/bin/k_$c.cubin" file
  done
  # library_missing: a program whose run-time path is a copied tree lacking the library (the loader's cache not
  # consulted, as on a machine whose ld.so.conf does not list the CUDA library folder)
  for b in gemm gemm2 fft rand solver solver2 sparse nvrtc vecadd_shared; do
    [ -x "$W/bin/$b" ] && P "missing.cuda-$b" library_missing cuda 30 "$X_MISS" "$b run with its RUNPATH tree ($(ls "$W/tree/$b" | tr '\n' ' ')) and no ld.so cache" -- "$LDSO" --inhibit-cache "$W/bin/$b"
  done
fi
drain
say "light done: $(grep -c 'staged=true' "$W/jobs.txt" 2>/dev/null) staged of $(wc -l < "$W/jobs.txt" 2>/dev/null)"

# --- too-big: every request larger than the whole GPU by itself (so side by side cannot change the outcome) ------
if phase too-big; then
  PAR=4
  P toobig.torch-alloc gpu_memory_exhausted torch 45 "$X_OOM" "one 200 GiB tensor" -- "$PY" "$J/t_op.py" alloc 200 float32
  P toobig.torch-zeros gpu_memory_exhausted torch 45 "$X_OOM" "zeros of 150 GiB in half precision" -- "$PY" "$J/t_op.py" zeros 150 float16
  P toobig.torch-matmul gpu_memory_exhausted torch 45 "$X_OOM" "a matmul of 150 GiB operands in bfloat16" -- "$PY" "$J/t_op.py" matmul 150 bfloat16
  P toobig.torch-conv2d gpu_memory_exhausted torch 45 "$X_OOM" "conv2d on a batch of 50000 images (output 160 GiB)" -- "$PY" "$J/t_op.py" conv2d 50000 float32
  P toobig.torch-embedding gpu_memory_exhausted torch 45 "$X_OOM" "an embedding of 50M x 1024" -- "$PY" "$J/t_op.py" embedding 50 float32
  P toobig.torch-mlp gpu_memory_exhausted torch 45 "$X_OOM" "linear layers of width 250000" -- "$PY" "$J/t_op.py" mlp 250000 float32
  P toobig.torch-attention gpu_memory_exhausted torch 45 "$X_OOM" "attention scores over 400k tokens, materialised" -- "$PY" "$J/t_op.py" attention 400000 float16
  P toobig.torch-conv3d gpu_memory_exhausted torch 45 "$X_OOM" "conv3d on 4000 clips (output 180 GiB)" -- "$PY" "$J/t_op.py" conv3d 4000 float32
  P toobig.jax-alloc gpu_memory_exhausted jax 45 "$X_OOM" "jnp.ones of 200 GiB (no preallocation)" -- env "$NOPRE" "$ONCUDA" "$PY" "$J/j_op.py" alloc 200 float32
  P toobig.jax-matmul gpu_memory_exhausted jax 45 "$X_OOM" "a JAX matmul of 150 GiB operands (no preallocation)" -- env "$NOPRE" "$ONCUDA" "$PY" "$J/j_op.py" matmul 150 bfloat16
  P toobig.jax-conv gpu_memory_exhausted jax 45 "$X_OOM" "a JAX conv on a batch of 12000 (output 144 GiB; no preallocation)" -- env "$NOPRE" "$ONCUDA" "$PY" "$J/j_op.py" conv 12000 float32
  P toobig.cupy-alloc gpu_memory_exhausted cupy 45 "$X_OOM" "cp.empty of 200 GiB" -- "$PY" "$J/c_op.py" alloc 200 float32
  P toobig.cupy-zeros gpu_memory_exhausted cupy 45 "$X_OOM" "cp.zeros of 150 GiB in float16" -- "$PY" "$J/c_op.py" zeros 150 float16
  P toobig.cupy-matmul gpu_memory_exhausted cupy 45 "$X_OOM" "a CuPy matmul of 150 GiB operands" -- "$PY" "$J/c_op.py" matmul 150 float32
  P toobig.cupy-fft gpu_memory_exhausted cupy 45 "$X_OOM" "a CuPy FFT of 160 GiB" -- "$PY" "$J/c_op.py" fft 160 float32
  drain; PAR=${REPRO_PAR:-12}
  # alone: its preallocation (75%) would take what the others need
  S toobig.jax-zeros-prealloc gpu_memory_exhausted jax 45 "$X_OOM" "jnp.zeros of 160 GiB with JAX's default preallocation" -- env "$ONCUDA" "$PY" "$J/j_op.py" zeros 160 float32
fi

# --- frag: the caching allocator fragmented; the whole GPU one at a time, then a memory fraction side by side -----
if phase frag; then
  S frag.full-1 allocator_fragmentation torch 45 "$X_OOM" "whole GPU: 2 GiB segments, 1.2 GiB kept in each, then 1.6 GiB asked" -- env "$NOEXP" "$PY" "$J/frag.py" 2 1.2 1.6 0 float32 empty
  S frag.full-2 allocator_fragmentation torch 45 "$X_OOM" "whole GPU: 1 GiB segments, 0.6 GiB kept, then randn of 0.9 GiB in half precision" -- env "$NOEXP" "$PY" "$J/frag.py" 1 0.6 0.9 0 float16 randn
  S frag.full-3 allocator_fragmentation torch 45 "$X_OOM" "whole GPU: 4 GiB segments, 2.5 GiB kept, then a cat of 3 GiB" -- env "$NOEXP" "$PY" "$J/frag.py" 4 2.5 3 0 bfloat16 cat
  PAR=3
  i=0
  for spec in "2 1.5 1 empty float32" "1 0.7 0.5 randn float16" "0.5 0.3 0.45 empty bfloat16" "3 2 1.5 cat float32" \
              "2 1.1 1.2 matmul float32" "1.5 1 0.8 empty float16" "0.75 0.5 0.4 randn float32" "2.5 1.6 1.4 cat bfloat16" "1 0.55 0.7 empty float32"; do
    i=$((i + 1)); set -- $spec
    P "frag.fraction-$i" allocator_fragmentation torch 45 "$X_OOM" "set_per_process_memory_fraction(0.3): $1 GiB segments, $2 GiB kept in each, then $3 GiB asked ($4, $5)" -- \
      env "$NOEXP" "$PY" "$J/frag.py" "$1" "$2" "$3" 0.3 "$5" "$4"
  done
  drain; PAR=${REPRO_PAR:-12}
fi

# --- prealloc: a JAX process with its preallocation; other frameworks and a second JAX process beside it ---------
# (to a torch or CuPy job the JAX pool is memory another process holds; a second JAX process meets JAX's own
# preallocation)
if phase prealloc; then
  for frac in default 0.95; do
    [ $(( $(elapsed) + 60 )) -gt "$HARD" ] && { echo "prealloc $frac: no time left" >> "$W/not-run.txt"; continue; }
    if [ "$frac" = default ]; then "$PY" "$J/hold_jax.py" 150 > "$W/hold-jax-$frac.out" 2>&1 &
    else env "XLA_PYTHON_CLIENT_MEM_FRACTION=$frac" "$PY" "$J/hold_jax.py" 150 > "$W/hold-jax-$frac.out" 2>&1 & fi
    HOLDER=$!; echo "$HOLDER" >> "$PIDS"
    if ! wait_for "$W/hold-jax-$frac.out" HOLDING 60; then say "JAX holder ($frac) did not start"; stop_holder; continue; fi
    d="a JAX process (PID $HOLDER) preallocated its pool (XLA_PYTHON_CLIENT_MEM_FRACTION $frac)"
    if [ "$frac" = default ]; then g=40 rb=2048; else g=10 rb=512; fi
    P "prealloc.$frac-torch-alloc" memory_held_by_other_process torch 45 "$X_OOM" "$d; a torch tensor of $g GiB" -- "$PY" "$J/t_op.py" alloc "$g" float32
    P "prealloc.$frac-torch-resnet" memory_held_by_other_process torch 45 "$X_OOM" "$d; a ResNet-50 training step, batch $rb" -- "$PY" "$J/t_op.py" resnet "$rb" float16 train
    P "prealloc.$frac-cupy-alloc" memory_held_by_other_process cupy 45 "$X_OOM" "$d; cp.empty of $g GiB" -- "$PY" "$J/c_op.py" alloc "$g" float32
    P "prealloc.$frac-jax-alloc" framework_preallocation jax 45 "$X_OOM" "$d; a second JAX process (default preallocation) asks for $g GiB" -- env "$ONCUDA" "$PY" "$J/j_op.py" alloc "$g" float32
    if [ "$frac" = default ]; then
      P "prealloc.$frac-torch-conv2d" memory_held_by_other_process torch 45 "$X_OOM" "$d; conv2d on a batch of 16384" -- "$PY" "$J/t_op.py" conv2d 16384 float32
      P "prealloc.$frac-torch-matmul" memory_held_by_other_process torch 45 "$X_OOM" "$d; a matmul of 20 GiB operands" -- "$PY" "$J/t_op.py" matmul 20 float32
      P "prealloc.$frac-cupy-matmul" memory_held_by_other_process cupy 45 "$X_OOM" "$d; a CuPy matmul of 20 GiB operands" -- "$PY" "$J/c_op.py" matmul 20 float32
      P "prealloc.$frac-jax-matmul" framework_preallocation jax 45 "$X_OOM" "$d; a second JAX process: a matmul of 20 GiB operands" -- env "$ONCUDA" "$PY" "$J/j_op.py" matmul 20 float32
    fi
    drain; stop_holder
  done
fi

# --- held: one holder resized to keep KEEP MiB free, jobs side by side against it ---------------------------------
held_jobs() {  # held_jobs TAG HOLDER-DESCRIPTION
  local k=$1 d=$2
  P "held.$k-torch-alloc" memory_held_by_other_process torch 45 "$X_OOM" "$d; a torch tensor of 16 GiB" -- "$PY" "$J/t_op.py" alloc 16 float32
  P "held.$k-torch-conv2d" memory_held_by_other_process torch 45 "$X_OOM" "$d; conv2d on a batch of 8192" -- "$PY" "$J/t_op.py" conv2d 8192 float32
  P "held.$k-torch-resnet" memory_held_by_other_process torch 45 "$X_OOM" "$d; a ResNet-50 training step, batch 1024" -- "$PY" "$J/t_op.py" resnet 1024 float32 train
  P "held.$k-torch-matmul" memory_held_by_other_process torch 45 "$X_OOM" "$d; a matmul of 12 GiB operands in half precision" -- "$PY" "$J/t_op.py" matmul 12 float16
  P "held.$k-jax-alloc" memory_held_by_other_process jax 45 "$X_OOM" "$d; a JAX array of 16 GiB (default preallocation)" -- env "$ONCUDA" "$PY" "$J/j_op.py" alloc 16 float32
  P "held.$k-cupy-alloc" memory_held_by_other_process cupy 45 "$X_OOM" "$d; cp.empty of 16 GiB" -- "$PY" "$J/c_op.py" alloc 16 float32
  P "held.$k-cupy-matmul" memory_held_by_other_process cupy 45 "$X_OOM" "$d; a CuPy matmul of 12 GiB operands" -- "$PY" "$J/c_op.py" matmul 12 float32
  drain
}
if phase held; then
  mkfifo "$W/hog.fifo"
  "$PY" "$J/hog_ctl.py" < "$W/hog.fifo" > "$W/hog.out" 2>&1 &
  HOLDER=$!; echo "$HOLDER" >> "$PIDS"
  exec 7<> "$W/hog.fifo"  # read-write: never blocks, whether or not the holder opened its end
  for keep in 300 1200 6000 12000; do
    [ $(( $(elapsed) + 50 )) -gt "$HARD" ] && { echo "held keep=$keep: no time left" >> "$W/not-run.txt"; continue; }
    kill -0 "$HOLDER" 2>/dev/null || { say "holder gone: $(tail -2 "$W/hog.out")"; break; }
    echo "$keep" >&7
    if ! wait_for "$W/hog.out" "HOLDING $keep " 60; then say "holder did not take keep=$keep: $(tail -2 "$W/hog.out")"; continue; fi
    timeout 20 nvidia-smi --query-compute-apps=pid,used_memory --format=csv > "$W/apps-keep$keep.csv" 2>&1
    held_jobs "keep$keep" "another process (PID $HOLDER, PyTorch) holds all GPU memory but $keep MiB"
  done
  exec 7>&-; stop_holder
  if [ $(( $(elapsed) + 50 )) -le "$HARD" ]; then
    "$PY" "$J/hog_cupy.py" 4000 120 > "$W/hog-cupy.out" 2>&1 &
    HOLDER=$!; echo "$HOLDER" >> "$PIDS"
    if wait_for "$W/hog-cupy.out" HOLDING 60; then
      kill -STOP "$HOLDER"
      held_jobs cupyhog-stopped "another process (PID $HOLDER, CuPy, stopped with SIGSTOP) holds all GPU memory but 4000 MiB"
    fi
    stop_holder
  fi
fi

# --- twofw: two frameworks in one process (one at a time: each takes most of the GPU) -----------------------------
if phase twofw; then
  S twofw.jax-torch framework_preallocation torch 45 "$X_OOM" "one process: JAX (default preallocation) then torch asks for 40 GiB" -- "$PY" "$J/two_fw.py" jax-torch 40
  S twofw.jax-cupy framework_preallocation cupy 45 "$X_OOM" "one process: JAX (default preallocation) then CuPy asks for 40 GiB" -- "$PY" "$J/two_fw.py" jax-cupy 40
  S twofw.jax-torch-conv framework_preallocation torch 45 "$X_OOM" "one process: JAX (default preallocation) then a torch conv2d needing ~40 GiB" -- "$PY" "$J/two_fw.py" jax-torch-conv 40
  S twofw.torch-jax framework_preallocation jax 45 "$X_OOM" "one process: torch keeps 100 GiB cached, then JAX asks for 40 GiB" -- env "$ONCUDA" "$PY" "$J/two_fw.py" torch-jax 40
  S twofw.cupy-torch framework_preallocation torch 45 "$X_OOM" "one process: CuPy's pool keeps 100 GiB, then torch asks for 40 GiB" -- "$PY" "$J/two_fw.py" cupy-torch 40
fi

# --- extra (only when asked: REPRO_ONLY=extra): more of the classes the first run left under ten -----------------
# (sub-library mixes that fail: the system heuristic and engines_runtime_compiled beside pip's cuDNN; the system
# ops library, which torch reports as its version; PTX from a newer toolkit for other targets; more missing
# libraries; a conv3d that is really too big)
if [ -n "${REPRO_ONLY:-}" ] && phase extra; then
  # (the first run: the convolutions ran with any one system sub-library; batch norm, alone or in a ResNet, failed)
  for sub in heuristic engines_runtime_compiled engines_precompiled graph cnn adv; do
    for spec in "batchnorm 32 float16" "resnet 8 float32"; do
      set -- $spec
      P "sublib.torch-$sub-$1" library_conflict torch 60 "$X_SUB" "LD_PRELOAD of the system libcudnn_$sub.so.9 (9.14) into torch with pip's cuDNN 9.19; a $1 in $3" -- \
        env "LD_PRELOAD=$SYS/libcudnn_$sub.so.9" "$PY" "$J/t_op.py" "$@"
    done
    case $sub in heuristic|engines_runtime_compiled) ;; *) continue ;; esac
    P "sublib.jax-$sub" library_conflict jax 60 "$X_SUB" "LD_PRELOAD of the system libcudnn_$sub.so.9 (9.14) into JAX with pip's cuDNN 9.19; JAX_PLATFORMS=cuda, a conv" -- \
      env "LD_PRELOAD=$SYS/libcudnn_$sub.so.9" "$ONCUDA" "$NOPRE" "$PY" "$J/j_op.py" conv 8 float32
  done
  P sublib.torch-both-batchnorm library_conflict torch 60 "$X_SUB" "LD_PRELOAD of the system heuristic and engines_runtime_compiled libraries; a batch norm with cudnn.benchmark" -- \
    env "LD_PRELOAD=$SYS/libcudnn_heuristic.so.9:$SYS/libcudnn_engines_runtime_compiled.so.9" "$PY" "$J/t_op.py" batchnorm 64 bfloat16 benchmark
  for op in "conv1d 64 float16 cudnn-version" "gru 256 float32" "lstm 128 float16" "resnet 8 float32 cudnn-version"; do
    set -- $op
    P "cudnnver.torch-preload-ops-$1" library_conflict torch 60 "$X_CUDNN" "LD_PRELOAD of the system libcudnn_ops.so.9 (torch then reports runtime 9.14); a $1" -- \
      env "LD_PRELOAD=$SYS/libcudnn_ops.so.9" "$PY" "$J/t_op.py" "$@"
  done
  for f in "$W"/bin/k_isa*.ptx; do
    [ -f "$f" ] || continue; nv=${f##*k_isa}; nv=${nv%.ptx}
    P "toolkit.ptxas-sm80-isa$nv" cuda_toolkit_mismatch cuda 30 "$X_TK" "ptxas -arch=sm_80 of PTX .version $nv (from a newer toolkit)" -- ptxas -arch=sm_80 -o "$W/cwd/k80.cubin" "$f"
    P "toolkit.ptxas-sm100-isa$nv" cuda_toolkit_mismatch cuda 30 "$X_TK" "ptxas -arch=sm_100 -O3 of PTX .version $nv (from a newer toolkit)" -- ptxas -arch=sm_100 -O3 -o "$W/cwd/k100.cubin" "$f"
  done
  for b in sparse2 gemm3 solver3; do
    [ -x "$W/bin/$b" ] && P "missing.cuda-$b" library_missing cuda 30 "$X_MISS" "$b run with its RUNPATH tree ($(ls "$W/tree/$b" | tr '\n' ' ')) and no ld.so cache" -- "$LDSO" --inhibit-cache "$W/bin/$b"
  done
  drain
  S toobig.torch-conv3d-12000 gpu_memory_exhausted torch 60 "$X_OOM" "conv3d on 12000 clips (output 154 GB)" -- "$PY" "$J/t_op.py" conv3d 12000 float32
  S toobig.torch-embedding-bf16 gpu_memory_exhausted torch 60 "$X_OOM" "an embedding of 100M x 1024 in bfloat16 (191 GiB)" -- "$PY" "$J/t_op.py" embedding 100 bfloat16
fi

# --- more (only when asked: REPRO_ONLY=more): the classes the relabelled corpus leaves short ----------------------
# driver_too_old: PTX whose .version is newer than the driver's JIT accepts, through more loaders (CuPy's
# RawModule from a file) and more versions; other: device-side assertions from data out of range;
# framework_preallocation: JAX's pool, then PyTorch in the same process (more operations and memory fractions).
# About two minutes.
if [ -n "${REPRO_ONLY:-}" ] && phase more; then
  if [ -f "$W/bin/k.ptx" ]; then
    v=$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' "$W/bin/k.ptx" | head -1)
    set -- $v
    if [ -n "${1:-}" ]; then
      for nv in "$1.$(( $2 + 3 ))" "$(( $1 + 1 )).1"; do sed "s/^\.version .*/.version $nv/" "$W/bin/k.ptx" > "$W/bin/k_more_isa$nv.ptx"; done
    fi
  fi
  for f in "$W"/bin/k_isa*.ptx "$W"/bin/k_more_isa*.ptx; do
    [ -f "$f" ] || continue; nv=${f##*isa}; nv=${nv%.ptx}
    P "driver.cupy-rawmodule-ptx-isa$nv" driver_too_old cupy 60 "$X_DRV" "CuPy RawModule(path=) of PTX .version $nv (newer than the driver's JIT accepts)" -- "$PY" "$J/mod_load.py" "$f" file
    case $f in
      *k_more_isa*)
        [ -x "$W/bin/ptxjit" ] && P "driver.cuda-ptx-isa$nv" driver_too_old cuda 30 "$X_DRV" "the driver JIT given PTX .version $nv (newer than it supports): cuModuleLoadDataEx" -- "$W/bin/ptxjit" "$f"
        P "driver.cupy-ptx-isa$nv" driver_too_old cupy 60 "$X_DRV" "CuPy loads PTX .version $nv (newer than the driver supports)" -- "$PY" "$J/mod_load.py" "$f" ;;
    esac
  done
  # other: the data is wrong, not the GPU (labels past the last class, ids past the vocabulary, raw scores where
  # probabilities go): the kernel's device-side assertion, as the real corpus's "not a GPU fault" reports
  for c in ce-label-too-big ce-label-negative ce-half nll-weight seg-255 embedding index-select gather scatter-add bce-range multinomial; do
    P "assert.torch-$c" other torch 60 "$X_ASSERT" "a training step whose data is out of range ($c): a device-side assertion" -- "$PY" "$J/t_assert.py" "$c"
  done
  for c in ce-label-too-big embedding; do
    P "assert.torch-$c-blocking" other torch 60 "$X_ASSERT" "the same with CUDA_LAUNCH_BLOCKING=1 ($c)" -- env CUDA_LAUNCH_BLOCKING=1 "$PY" "$J/t_assert.py" "$c"
  done
  drain
  # one at a time: JAX's pool takes most of the GPU
  S twofw.jax-torch-matmul framework_preallocation torch 45 "$X_OOM" "one process: JAX (default preallocation) then a torch matmul of 40 GiB operands" -- "$PY" "$J/two_fw.py" jax-torch-matmul 40
  S twofw.jax-torch-embedding framework_preallocation torch 45 "$X_OOM" "one process: JAX (default preallocation) then a torch embedding of 40 GiB" -- "$PY" "$J/two_fw.py" jax-torch-embedding 40
  S twofw.jax90-torch framework_preallocation torch 45 "$X_OOM" "one process: JAX with XLA_PYTHON_CLIENT_MEM_FRACTION=0.9 then torch asks for 20 GiB" -- env XLA_PYTHON_CLIENT_MEM_FRACTION=0.9 "$PY" "$J/two_fw.py" jax-torch 20
  S twofw.jax60-torch-conv framework_preallocation torch 45 "$X_OOM" "one process: JAX with XLA_PYTHON_CLIENT_MEM_FRACTION=0.6 then a torch conv2d needing ~60 GiB" -- env XLA_PYTHON_CLIENT_MEM_FRACTION=0.6 "$PY" "$J/two_fw.py" jax-torch-conv 60
fi

# --- pack ------------------------------------------------------------------------------------------------------
cleanup
wait "$MACH" 2>/dev/null
say "all phases done"
{
  echo "repro run: $(date -u +%FT%TZ), $(elapsed) s"; cat "$W/machine.txt"; echo
  echo "label                          jobs staged  (staged: failed, not timed out, with the scenario's text)"
  for f in $(sidecars); do sed -n 's/.*"label":"\([^"]*\)".*"staged":\(true\|false\).*/\1 \2/p' "$f"; done | sort | uniq -c |
    awk '{ n[$2] += $1; if ($3 == "true") s[$2] += $1 } END { for (l in n) printf "%-30s %5d %6d\n", l, n[l], s[l] }' | sort
  echo; echo "jobs: $(sidecars | wc -l), staged: $(sidecars | xargs -r grep -l '"staged":true' | wc -l)"
  echo "snapshots: $SNAPS"
  [ "$SNAPS" = on ] && for f in $(sidecars); do sed -n 's/.*"snapshot":"\([^":]*\).*/\1/p' "$f"; done | sort | uniq -c | sed 's/^/  /'
  echo; echo "not staged (kept, marked):"; sidecars | xargs -r grep -L '"staged":true' | sed 's|.*/||; s|\.json$||' | while read -r id; do echo "  $id: exit $(sed -n 's/.*"exit":\([0-9-]*\).*/\1/p' "$LOGS/$id.json"), $(grep -v '^\s*$' "$LOGS/$id.log" | tail -1 | cut -c1-160)"; done
  echo; echo "not run:"; cat "$W/not-run.txt" 2>/dev/null
  echo; echo "build failures:"; grep '^build ' "$W/run.txt" 2>/dev/null
} > "$W/summary.txt"
cp "$W/summary.txt" "$OUT/summary.txt"
tar -czf "$OUT/repro-logs.tar.gz" -C "$W" logs summary.txt machine.txt run.txt jobs.txt build.log $(cd "$W" && ls hog*.out hold-*.out apps-*.csv not-run.txt 2>/dev/null)
if [ "$(stat -c %s "$OUT/repro-logs.tar.gz")" -gt 15000000 ]; then
  # logs longer than 256 KiB cut to their first and last 128 KiB (marked in the log) until the archive fits
  for f in "$LOGS"/*.log; do if [ "$(stat -c %s "$f")" -gt 262144 ]; then { head -c 131072 "$f"; printf '\n[... cut by run.sh: %s bytes in all ...]\n' "$(stat -c %s "$f")"; tail -c 131072 "$f"; } > "$f.cut"; mv "$f.cut" "$f"; fi; done
  tar -czf "$OUT/repro-logs.tar.gz" -C "$W" logs summary.txt machine.txt run.txt jobs.txt build.log
fi
say "done: $OUT/repro-logs.tar.gz ($(du -h "$OUT/repro-logs.tar.gz" | cut -f1))"
cat "$W/summary.txt"
