#!/usr/bin/env bash
# Issue 13's truth table: what the tool says against what the frameworks actually do, on the GPU machine.
# Each scenario is staged, the framework's own small job runs from a fresh process (exit code and error line
# recorded), then check, check --deep (and --deep=frameworks when the CLI has it), explain on the job's output,
# run -- <job> and procs run in the same state. gpu-lab/truth/judge.mjs decides "agree" by code from those
# records and writes one Markdown table. Everything (table, raw outputs) is packed in $OUT/truth-table.tgz;
# the table is also $OUT/truth-table.md.
#
#   source .gpu-lab/env.sh && OUT=$OUT bash gpu-lab/truth-table.sh
#   TRUTH_DRY=1 bash gpu-lab/truth-table.sh     # here: fake python3 and nvidia-smi (gpu-lab/truth/fake)
#   TRUTH_ONLY='s_cvd|s_holder_state live'       # only the scenarios whose call matches (grep -E)
#   TRUTH_ROWS=new   # only the rows of issue 27 (about 4 minutes): a nearly full GPU, two frameworks in one
#                    # process, another user's holder, the node checks (also a 64 MiB /dev/shm and the kernel
#                    # log as another user), LD_PRELOAD and a truncated sub-library
#   TRUTH_ROWS=all   # the old rows, then the new ones (past one 10-minute call: run old and new apart)
#   (unset or old: the rows of issue 13 only, as before)
#
# Time: light scenarios run side by side (TRUTH_PAR at once, JAX without preallocation so they do not starve
# each other); scenarios that fill GPU memory run one after another. Every command has a time limit, no new
# scenario starts after TRUTH_BUDGET_S seconds, and every process started here is ended on exit.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ROWS=${TRUTH_ROWS:-old}
case $ROWS in old|new|all) ;; *) echo "TRUTH_ROWS must be old, new or all, not \"$ROWS\"" >&2; exit 2 ;; esac
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
W=${TRUTH_WORK:-/tmp/ged-truth}; rm -rf "$W"; mkdir -p "$W/s"
JOBS=$HERE/truth/jobs
PAR=${TRUTH_PAR:-6}
BUDGET=${TRUTH_BUDGET_S:-390}
T0=$(date +%s)
STARTED=$W/started.pids; : > "$STARTED"
if [ -n "${TRUTH_DRY:-}" ]; then
  export PATH="$HERE/truth/fake:$PATH" TRUTH_FAKE_STATE="$W/fake-state"; mkdir -p "$W/fake-state"
fi
PY=${PY:-python3}
CLI=(node "$ROOT/dist/cli.js")
BASE_LLP=${LD_LIBRARY_PATH:-}

cleanup() {
  # End what this script started (holders, hogs), by their recorded PIDs: continue the stopped ones first.
  while read -r pid; do
    [ -n "$pid" ] || continue
    kill -CONT "$pid" 2>/dev/null; kill "$pid" 2>/dev/null
  done < "$STARTED"
  sleep 1
  while read -r pid; do [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; done < "$STARTED"
  true
}
trap cleanup EXIT

elapsed() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(elapsed)s] $*"; }

# --- the commands, each run with the scenario's environment (the array ENVV) and a time limit -------------
# job NAME SECONDS CMD...: the framework's job from a fresh process; output in job-NAME.out, exit in job-NAME.exit
job() {
  local name=$1 t=$2; shift 2
  timeout -k 3 "$t" env "${ENVV[@]}" "$@" > "$D/job-$name.out" 2>&1
  echo $? > "$D/job-$name.exit"
}
tool_check() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" check --json > "$D/check.json" 2> "$D/check.err"; echo $? > "$D/check.exit"; }
tool_check_text() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" check --no-color -v > "$D/check.txt" 2>&1; }
tool_deep() {
  timeout -k 3 150 env "${ENVV[@]}" "${CLI[@]}" check --deep --json > "$D/deep.json" 2> "$D/deep.err"; echo $? > "$D/deep.exit"
  if [ "$DEEP_FRAMEWORKS" = 1 ] && [ -z "${NO_DEEP_FW:-}" ]; then
    timeout -k 3 150 env "${ENVV[@]}" "${CLI[@]}" check --deep=frameworks --json > "$D/deep-frameworks.json" 2> "$D/deep-frameworks.err"; echo $? > "$D/deep-frameworks.exit"
  fi
}
tool_explain() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" explain "$D/job-$1.out" --json > "$D/explain-$1.json" 2> "$D/explain-$1.err"; echo $? > "$D/explain-$1.exit"; }
# tool_run NAME SECONDS CMD...: the same job under `run`
tool_run() {
  local name=$1 t=$2; shift 2
  # run's stdout and stderr are the job's: its report goes to a file (run refuses --json)
  timeout -k 3 "$t" env "${ENVV[@]}" "${CLI[@]}" run --report "$D/run-$name.json" --interval 200 --html "$D/run-$name.html" -- "$@" > "$D/run-$name.stdout" 2> "$D/run-$name.stderr"
  echo $? > "$D/run-$name.exit"
}
tool_procs() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" procs --json > "$D/procs.json" 2> "$D/procs.err"; echo $? > "$D/procs.exit"; }
tool_libs() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" libs --json > "$D/libs.json" 2> "$D/libs.err"; echo $? > "$D/libs.exit"; }
tool_libs_elf() { timeout -k 3 60 env "${ENVV[@]}" "${CLI[@]}" libs --json --elf "$1" > "$D/libs-elf.json" 2> "$D/libs-elf.err"; echo $? > "$D/libs-elf.exit"; }

# A scenario's folder, its title, the framework its job uses and the root causes that explain its failure.
begin() {
  D=$W/s/$1; mkdir -p "$D"
  { echo "id=$1"; echo "title=$2"; echo "framework=$3"; echo "causes=$4"; } > "$D/meta.env"
  printf '%s\n' "${ENVV[@]}" > "$D/env.txt"
}
# wait_for FILE TEXT SECONDS: until FILE contains TEXT (a holder printed HOLDING)
wait_for() { local i; for i in $(seq 1 $(( $3 * 5 ))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done; return 1; }
# start_bg FILE CMD...: a background holder, a child of this shell (so its parent stays alive); its PID in BG_PID
# and recorded, so it is always ended. Never call it inside $(...): the holder would be orphaned at once.
start_bg() { local f=$1; shift; env "${ENVV[@]}" "$@" > "$f" 2>&1 & BG_PID=$!; echo "$BG_PID" >> "$STARTED"; }

# --- light scenarios (side by side) ------------------------------------------------------------------------
LIGHT=(XLA_PYTHON_CLIENT_PREALLOCATE=false)

s_baseline() {
  ENVV=("${LIGHT[@]}"); begin baseline "idle machine: a torch and a JAX convolution" torch "-"
  job torch 90 "$PY" "$JOBS/torch_conv.py"; job jax 90 "$PY" "$JOBS/jax_conv.py"
  tool_check; tool_deep; tool_run torch 120 "$PY" "$JOBS/torch_conv.py"
}
s_system_cudnn_torch() {
  ENVV=("${LIGHT[@]}" "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu${BASE_LLP:+:$BASE_LLP}")
  begin system-cudnn-torch "system cuDNN 9.14 first on LD_LIBRARY_PATH, torch (points 1, 2)" torch cudnn_version_mismatch,library_conflict
  job conv 90 "$PY" "$JOBS/torch_conv.py"; job version 90 "$PY" "$JOBS/torch_conv_version.py"
  tool_check; tool_deep; tool_explain version; tool_run version 120 "$PY" "$JOBS/torch_conv_version.py"
}
s_system_cudnn_jax() {
  ENVV=("${LIGHT[@]}" "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu${BASE_LLP:+:$BASE_LLP}")
  begin system-cudnn-jax "system cuDNN 9.14 first on LD_LIBRARY_PATH, JAX (point 2)" jax cudnn_version_mismatch,library_conflict
  job conv 90 "$PY" "$JOBS/jax_conv.py"
  tool_check; tool_deep; tool_explain conv; tool_run conv 120 "$PY" "$JOBS/jax_conv.py"
}
# PYTORCH_CUDA_ALLOC_CONF values: which abort at import, which fail at the first CUDA call, which are taken (point 3)
ALLOC_VALUES=("expandable_segment:True,garbage" "expandable_segments=True" "expandable_segments:true" "foo:1" "max_split_size_mb:abc" "max_split_size_mb:10" ",expandable_segments:True" "expandable_segments:True")
s_allocconf() {
  local i=$1 v=${ALLOC_VALUES[$1]}
  ENVV=("${LIGHT[@]}" "PYTORCH_CUDA_ALLOC_CONF=$v"); begin "allocconf-$i" "PYTORCH_CUDA_ALLOC_CONF=$v (point 3)" torch "-"
  job alloc 90 "$PY" "$JOBS/torch_alloc.py"
  tool_check; tool_explain alloc; tool_run alloc 120 "$PY" "$JOBS/torch_alloc.py"
  [ "$i" = 0 ] && tool_deep
}
s_cvd() {
  local id=$1 v=$2 title=$3
  ENVV=("${LIGHT[@]}" "CUDA_VISIBLE_DEVICES=$v"); begin "$id" "$title" torch no_device_visible
  job torch 90 "$PY" "$JOBS/torch_conv.py"; job jax 90 "$PY" "$JOBS/jax_conv.py"
  tool_check; tool_explain torch; tool_run torch 120 "$PY" "$JOBS/torch_conv.py"
}
s_compat() {
  ENVV=("${LIGHT[@]}" "LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat${BASE_LLP:+:$BASE_LLP}")
  # both ids name this case in CONTRACT (driver_too_old: "the compat library in use"; library_conflict:
  # LD_LIBRARY_PATH shadowing the driver's own libcuda); the repro corpus labels it library_conflict, driver second
  begin compat-libcuda "forward-compat libcuda first (LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat, error 803)" torch \
    library_conflict,driver_too_old
  job torch 90 "$PY" "$JOBS/torch_conv.py"; job jax 90 "$PY" "$JOBS/jax_conv.py"
  tool_check; tool_deep; tool_explain torch; tool_run torch 120 "$PY" "$JOBS/torch_conv.py"
}
s_wrong_arch() {
  ENVV=("${LIGHT[@]}"); begin wrong-arch "a kernel built only for sm_100 on the sm_90 H200 (nvcc -gencode arch=compute_100,code=sm_100)" cuda gpu_arch_unsupported
  if [ ! -x "$W/wrong_arch" ]; then echo "nvcc build failed: $(cat "$W/nvcc.txt" 2>/dev/null | tail -3)" > "$D/not-staged"; return; fi
  job kernel 60 "$W/wrong_arch"
  tool_check; tool_explain kernel; tool_run kernel 60 "$W/wrong_arch"; tool_libs_elf "$W/wrong_arch"
  # what the real loader did at run time: the libraries it looked up (libcuda.so.1 by dlopen)
  env LD_DEBUG=libs "$W/wrong_arch" > /dev/null 2> "$D/ld-debug.txt"
}
s_elf_plain() {
  ENVV=("${LIGHT[@]}"); begin elf-plain "libs --elf on a plain program (/bin/ls) against the real loader (point 5)" none "-"
  tool_libs_elf /bin/ls
  env LD_TRACE_LOADED_OBJECTS=1 /bin/ls > "$D/ld-trace.txt" 2>&1
}
s_tf_growth() {
  ENVV=("${LIGHT[@]}" "TF_FORCE_GPU_ALLOW_GROWTH=True"); begin tf-growth-invalid "TF_FORCE_GPU_ALLOW_GROWTH=True (TensorFlow reads only lower case)" tensorflow framework_preallocation
  if timeout 60 "$PY" -c 'import tensorflow' > "$D/tf-import.txt" 2>&1; then
    job tf 120 "$PY" -c 'import tensorflow as tf; print("JOB-OK", tf.config.experimental.get_memory_growth(tf.config.list_physical_devices("GPU")[0]))'
  else echo "TensorFlow is not installed on this machine" > "$D/not-staged"; fi
  tool_check
}

# --- scenarios that take GPU memory (one after another) ----------------------------------------------------
stop_holders() { cleanup; : > "$STARTED"; sleep 1; }

s_jax_beside_torch() {
  ENVV=(); begin jax-prealloc-beside-torch "a JAX process with its default preallocation (75%) beside a torch job of 40 GiB (point 7)" torch memory_held_by_other_process,framework_preallocation
  start_bg "$D/holder.out" "$PY" "$JOBS/hold_jax.py" 120; echo "$BG_PID jax" > "$D/holders.txt"
  wait_for "$D/holder.out" HOLDING 60 || echo "holder did not start" >> "$D/notes.txt"
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv > "$D/apps.csv" 2>&1
  job gib 90 "$PY" "$JOBS/torch_gib.py" 40
  tool_check; tool_procs; tool_explain gib; tool_run gib 120 "$PY" "$JOBS/torch_gib.py" 40
  stop_holders
}
s_torch_beside_jax() {
  ENVV=(); begin torch-beside-jax "a torch process (30 GiB live + 10 GiB cached) beside a JAX job with default preallocation (point 7)" jax framework_preallocation,memory_held_by_other_process
  start_bg "$D/holder.out" "$PY" "$JOBS/hold_torch.py" 30 10 120; echo "$BG_PID torch" > "$D/holders.txt"
  wait_for "$D/holder.out" HOLDING 60 || echo "holder did not start" >> "$D/notes.txt"
  job conv 90 "$PY" "$JOBS/jax_conv.py"
  tool_check; tool_procs; tool_deep; tool_explain conv; tool_run conv 120 "$PY" "$JOBS/jax_conv.py"
  stop_holders
}
# holder states: orphaned (its parent exited), stopped (SIGSTOP), live with its parent alive
s_holder_state() {
  local state=$1
  ENVV=(); begin "holder-$state" "a hog.py holder that is $state; a torch job of 4 GiB" torch memory_held_by_other_process
  local pid
  case $state in
    # its output goes through a FIFO: a leftover of a crashed job wrote its last line long ago, and a holder whose
    # log file changed in the last minute counts as working (never-harm), which this row is not about
    orphaned) mkfifo "$D/holder.fifo"; cat "$D/holder.fifo" > "$D/holder.out" & echo $! >> "$STARTED"
      ( env "$PY" "$JOBS/hog.py" 1200 120 > "$D/holder.fifo" 2>&1 & echo $! > "$D/holder.pid" ); pid=$(cat "$D/holder.pid"); echo "$pid" >> "$STARTED" ;;
    *) start_bg "$D/holder.out" "$PY" "$JOBS/hog.py" 1200 120; pid=$BG_PID ;;
  esac
  echo "$pid torch $state" > "$D/holders.txt"
  wait_for "$D/holder.out" HOLDING 60 || echo "holder did not start" >> "$D/notes.txt"
  [ "$state" = stopped ] && kill -STOP "$pid"
  job gib 90 "$PY" "$JOBS/torch_gib.py" 4
  tool_check; tool_procs; tool_explain gib; tool_run gib 120 "$PY" "$JOBS/torch_gib.py" 4
  stop_holders
}
s_too_big() {
  ENVV=(); begin too-big "a torch job that asks for 200 GiB on a 140 GiB GPU (too big by itself)" torch gpu_memory_exhausted
  job gib 90 "$PY" "$JOBS/torch_gib.py" 200
  tool_check; tool_explain gib; tool_run gib 120 "$PY" "$JOBS/torch_gib.py" 200
}
s_growth_rescue() {
  ENVV=(); begin growth-rescue "JAX with little free memory: default preallocation, then XLA_PYTHON_CLIENT_PREALLOCATE=false (memory growth that rescues a job)" jax framework_preallocation,memory_held_by_other_process
  start_bg "$D/holder.out" "$PY" "$JOBS/hog.py" 1200 150; echo "$BG_PID torch" > "$D/holders.txt"
  wait_for "$D/holder.out" HOLDING 60 || echo "holder did not start" >> "$D/notes.txt"
  job default 90 "$PY" "$JOBS/jax_conv.py"
  ENVV=(XLA_PYTHON_CLIENT_PREALLOCATE=false); job growth 90 "$PY" "$JOBS/jax_conv.py"; ENVV=()
  tool_check; tool_deep; tool_explain default; tool_run default 120 "$PY" "$JOBS/jax_conv.py"
  stop_holders
}
# JAX's memory variables (each JAX job preallocates, so one at a time)
JAX_SETTINGS=("XLA_PYTHON_CLIENT_MEM_FRACTION=abc" "XLA_PYTHON_CLIENT_MEM_FRACTION=1.5" "XLA_PYTHON_CLIENT_PREALLOCATE=maybe" "XLA_PYTHON_CLIENT_PREALLOCATE=FALSE" "XLA_PYTHON_CLIENT_ALLOCATOR=foo")
s_jax_setting() {
  local i=$1 v=${JAX_SETTINGS[$1]}
  ENVV=("$v"); begin "jax-setting-$i" "$v (point 3)" jax other
  job conv 90 "$PY" "$JOBS/jax_conv.py"
  tool_check
}

# --- the rows of issue 27 (TRUTH_ROWS=new or all) -----------------------------------------------------------
# job_maps FW: cudnn_maps.py in FW (torch or jax) from a fresh process under LD_DEBUG=libs: the cuDNN files it
# mapped (maps-FW.txt, from /proc/self/maps) and the loader's own cuDNN lines (lddebug-FW-cudnn.txt), which are
# all there is when the process died before it could read its maps.
job_maps() {
  local fw=$1; mkdir -p "$D/lddebug"
  timeout -k 3 120 env "${ENVV[@]}" LD_DEBUG=libs LD_DEBUG_OUTPUT="$D/lddebug/$fw" "$PY" "$JOBS/cudnn_maps.py" "$fw" "$D/maps-$fw.txt" > "$D/job-$fw.out" 2>&1
  echo $? > "$D/job-$fw.exit"
  # one LD_DEBUG file per process (ld.so appends .PID); only the cuDNN lines are kept
  cat "$D"/lddebug/"$fw".* 2>/dev/null | grep -E 'libcudnn' | sed -E 's/^ *[0-9]+: *//' > "$D/lddebug-$fw-cudnn.txt"
  rm -rf "$D/lddebug"
}
# the system cuDNN (9.14 on the GPU machine) and pip's libcudnn_graph.so.9; in dry mode tiny ELF stand-ins
SYS_CUDNN=${TRUTH_SYS_CUDNN:-/usr/lib/x86_64-linux-gnu/libcudnn.so.9}
PIP_GRAPH=
new_setup() {
  if [ -n "${TRUTH_DRY:-}" ]; then
    mkdir -p "$W/dry-lib"
    gcc -shared -fPIC -Wl,-soname,libcudnn.so.9 -o "$W/dry-lib/libcudnn.so.9.14.0" -x c /dev/null 2> /dev/null && ln -sf libcudnn.so.9.14.0 "$W/dry-lib/libcudnn.so.9"
    gcc -shared -fPIC -Wl,-soname,libcudnn_graph.so.9 -o "$W/dry-lib/libcudnn_graph.so.9" -x c /dev/null 2> /dev/null
    SYS_CUDNN=$W/dry-lib/libcudnn.so.9; PIP_GRAPH=$W/dry-lib/libcudnn_graph.so.9
  else
    PIP_GRAPH="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null)/nvidia/cudnn/lib/libcudnn_graph.so.9"
  fi
}
# 1. a nearly full GPU: every framework's job fails; check errors on headroom, --deep names the allocation failure
s_nearly_full() {
  ENVV=(); begin nearly-full "a nearly full GPU (a hog keeps 300 MiB free): a torch, a JAX and a CuPy job" torch memory_held_by_other_process
  start_bg "$D/holder.out" "$PY" "$JOBS/hog.py" 300 150; echo "$BG_PID torch" > "$D/holders.txt"
  wait_for "$D/holder.out" HOLDING 60 || echo "holder did not start" >> "$D/notes.txt"
  nvidia-smi --query-gpu=memory.used,memory.free,memory.total --format=csv > "$D/gpu-memory.csv" 2>&1
  job torch 60 "$PY" "$JOBS/torch_gib.py" 1; job jax 60 "$PY" "$JOBS/jax_conv.py"; job cupy 60 "$PY" "$JOBS/cupy_alloc.py" 512
  tool_check; tool_procs; NO_DEEP_FW=1 tool_deep; tool_explain torch; tool_run torch 90 "$PY" "$JOBS/torch_gib.py" 1
  stop_holders
}
# 2. two frameworks in one process: JAX's preallocation, then PyTorch's 40 GiB; the same with preallocation off
s_two_frameworks() {
  ENVV=(); begin two-frameworks "two frameworks in one process: JAX preallocates (75%), then PyTorch asks for 40 GiB" torch framework_preallocation
  job both 120 "$PY" "$JOBS/jax_then_torch.py" 40
  tool_explain both; tool_run both 150 "$PY" "$JOBS/jax_then_torch.py" 40
  ENVV=(XLA_PYTHON_CLIENT_PREALLOCATE=false); job fixed 120 "$PY" "$JOBS/jax_then_torch.py" 40; ENVV=()
}
# 3. another user's holder (nobody), its parent (this script) alive: procs, fix --yes (must leave it), check
s_other_user() {
  ENVV=("HOME=$W/nobody-home"); begin other-user "a holder of 2 GiB run as another user (nobody), its parent alive" torch memory_held_by_other_process
  chmod 755 "$W"; mkdir -p "$W/nobody-home"; chmod 777 "$W/nobody-home"; cp "$JOBS/hold_small.py" "$W/hold_small.py"; chmod 644 "$W/hold_small.py"
  local as=() py; py=$(command -v "$PY")
  if [ -n "${TRUTH_DRY:-}" ] || [ "$(id -u)" != 0 ]; then echo "not switched: dry mode or not root (the holder runs as $(id -un))" >> "$D/notes.txt"
  elif command -v setpriv > /dev/null; then as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  elif command -v runuser > /dev/null; then as=(runuser -u nobody --)
  else as=(su -s "$py" nobody --); py=
  fi
  echo "${as[*]:-same user}" > "$D/switch.txt"
  start_bg "$D/holder.out" "${as[@]}" ${py:+"$py"} "$W/hold_small.py" 2 120
  wait_for "$D/holder.out" HOLDING 90 || echo "holder did not start" >> "$D/notes.txt"
  local pid; pid=$(sed -n 's/^HOLDING small PID \([0-9]*\).*/\1/p' "$D/holder.out" | head -1)
  [ -n "$pid" ] && echo "$pid" >> "$STARTED"
  echo "${pid:-$BG_PID} torch other" > "$D/holders.txt"
  ps -o user= -p "${pid:-$BG_PID}" > "$D/holder-user.txt" 2>&1
  tool_procs; tool_check
  timeout -k 3 90 env "${ENVV[@]}" "${CLI[@]}" fix --yes --json --grace 5 > "$D/fix.json" 2> "$D/fix.err"; echo $? > "$D/fix.exit"
  sleep 1
  if kill -0 "${pid:-$BG_PID}" 2> /dev/null; then echo alive > "$D/after-fix.txt"; else echo gone > "$D/after-fix.txt"; fi
  stop_holders
}
# 4. the node checks against the raw values read in the same run; /dev/shm made small in a private mount
# namespace (as Docker's 64 MiB default) with PyTorch's DataLoader as the job
s_node() {
  ENVV=(); begin node-facts "node checks against nvidia-smi -q -x, df /dev/shm and dmesg read in the same run" none "-"
  nvidia-smi -q -x > "$D/nvidia-smi-q.xml" 2> "$D/nvidia-smi-q.err"; echo $? > "$D/nvidia-smi-q.exit"
  df -B1 --output=size,target /dev/shm > "$D/shm-df.txt" 2>&1
  dmesg > "$D/dmesg.txt" 2> "$D/dmesg.err"; echo $? > "$D/dmesg.exit"
  cat /proc/sys/kernel/dmesg_restrict > "$D/dmesg-restrict.txt" 2>&1
  tool_check
}
# the kernel log as another user (nobody): dmesg's own exit, then check's node.kernel-log, both as that user
# (copies of node and dist/ where that user can read them)
s_node_nobody() {
  ENVV=("HOME=$W/nobody-home"); begin node-kernel-log-nobody "the kernel log as another user (nobody): dmesg, then check, both as that user" none "-"
  local as=()
  if [ -n "${TRUTH_DRY:-}" ] || [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null; then echo "not switched: dry mode, not root or no setpriv (runs as $(id -un))" >> "$D/notes.txt"
  else as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  fi
  local nb=$W/nobody-bin
  chmod 755 "$W"; mkdir -p "$W/nobody-home" "$nb"; chmod 777 "$W/nobody-home"
  cp "$(command -v node)" "$nb/node" && cp -r "$ROOT/dist" "$nb/dist" && chmod -R a+rX "$nb" || { echo "could not copy node and dist for that user" > "$D/not-staged"; return; }
  echo "${as[*]:-same user}" > "$D/switch.txt"
  timeout 20 env "${ENVV[@]}" "${as[@]}" dmesg > "$D/dmesg.txt" 2> "$D/dmesg.err"; echo $? > "$D/dmesg.exit"
  timeout -k 3 60 env "${ENVV[@]}" "${as[@]}" "$nb/node" "$nb/dist/cli.js" check --json > "$D/check.json" 2> "$D/check.err"; echo $? > "$D/check.exit"
  rm -rf "$nb"
}
s_node_shm() {
  ENVV=(); begin node-shm-small "/dev/shm of 64 MiB in a private mount namespace: a PyTorch DataLoader (2 workers, 32 MiB batches) and check" torch "-"
  # the mount is private to the new namespace (unshare's default propagation): the machine's /dev/shm is untouched
  if ! timeout 10 unshare -m -- true 2> "$D/unshare.err"; then echo "unshare -m refused: $(head -1 "$D/unshare.err")" > "$D/not-staged"; return; fi
  timeout -k 3 150 env "${ENVV[@]}" unshare -m -- bash -c '
    d=$1; shift
    mount -t tmpfs -o size=64m,nosuid,nodev tmpfs /dev/shm 2> "$d/mount.err" || { echo "mount of a 64 MiB /dev/shm refused: $(head -1 "$d/mount.err")" > "$d/not-staged"; exit 0; }
    df -B1 --output=size,target /dev/shm > "$d/shm-df.txt" 2>&1
    timeout -k 3 90 "$1" "$2" > "$d/job-dataloader.out" 2>&1; echo $? > "$d/job-dataloader.exit"
    shift 2
    timeout -k 3 60 "$@" check --json > "$d/check.json" 2> "$d/check.err"; echo $? > "$d/check.exit"
  ' _ "$D" "$PY" "$JOBS/torch_dataloader.py" "${CLI[@]}"
}
# 5. LD_PRELOAD of the system cuDNN, then a truncated libcudnn_graph.so.9 first on LD_LIBRARY_PATH
s_preload() {
  local fw=$1
  ENVV=(XLA_PYTHON_CLIENT_PREALLOCATE=false "LD_PRELOAD=$SYS_CUDNN"); begin "preload-$fw" "LD_PRELOAD=$SYS_CUDNN (the system cuDNN), $fw's convolution" "$fw" cudnn_version_mismatch,library_conflict
  if [ ! -e "$SYS_CUDNN" ]; then echo "no $SYS_CUDNN on this machine" > "$D/not-staged"; return; fi
  readlink -f "$SYS_CUDNN" > "$D/preload-real.txt"
  job_maps "$fw"; tool_libs; tool_check; NO_DEEP_FW=1 tool_deep
}
s_truncated() {
  local sh=$W/shadow
  ENVV=(XLA_PYTHON_CLIENT_PREALLOCATE=false "LD_LIBRARY_PATH=$sh${BASE_LLP:+:$BASE_LLP}")
  begin truncated-graph "a truncated libcudnn_graph.so.9 (cut at 1 MiB or half) first on LD_LIBRARY_PATH: torch and JAX" torch library_missing,library_conflict
  if [ ! -f "$PIP_GRAPH" ]; then echo "no pip libcudnn_graph.so.9 ($PIP_GRAPH)" > "$D/not-staged"; return; fi
  mkdir -p "$sh"; local size cut; size=$(stat -c %s "$PIP_GRAPH"); cut=$(( size / 2 < 1048576 ? size / 2 : 1048576 ))
  head -c "$cut" "$PIP_GRAPH" > "$sh/libcudnn_graph.so.9"; echo "$sh/libcudnn_graph.so.9 $cut of $size bytes" > "$D/shadow.txt"
  job_maps torch; job_maps jax; tool_libs; tool_check; NO_DEEP_FW=1 tool_deep
}

# --- setup -------------------------------------------------------------------------------------------------
# TRUTH_ONLY: only the scenarios whose call matches
only() { [ -z "${TRUTH_ONLY:-}" ] || printf '%s\n' "$1" | grep -Eq -- "$TRUTH_ONLY"; }
log "truth table on $(uname -n) into $OUT (work folder $W)"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; "$PY" -c 'import sys, torch, jax; print(sys.version.split()[0], "torch", torch.__version__, "jax", jax.__version__)'; node --version; } > "$W/machine.txt" 2>&1
cat "$W/machine.txt"
DEEP_FRAMEWORKS=0
"${CLI[@]}" check --help 2>&1 | grep -q 'deep=frameworks' && DEEP_FRAMEWORKS=1
echo "deep_frameworks=$DEEP_FRAMEWORKS" >> "$W/machine.txt"
if [ "$ROWS" != new ]; then
( timeout 120 nvcc -gencode arch=compute_100,code=sm_100 -o "$W/wrong_arch" "$JOBS/wrong_arch.cu" > "$W/nvcc.txt" 2>&1 ) &
NVCC=$!
# the idle check first, alone (points 4, 6)
ENVV=(); begin idle "idle machine: check's headlines (points 4, 6)" none "-"; tool_check; tool_check_text
# the baseline alone too: beside the light scenarios its check would see their processes (a cuDNN mix loaded by
# the system-cuDNN scenario's job is a true finding about this machine, but not this scenario's)
only s_baseline && { log "start s_baseline"; s_baseline; }

# --- light scenarios, side by side ---------------------------------------------------------------------------
LIGHT_LIST=(s_system_cudnn_torch s_system_cudnn_jax s_compat s_elf_plain s_tf_growth
  "s_cvd cvd-empty '' 'CUDA_VISIBLE_DEVICES= (empty)'" "s_cvd cvd-minus1 -1 'CUDA_VISIBLE_DEVICES=-1'" "s_cvd cvd-past-end 1 'CUDA_VISIBLE_DEVICES=1 (an index past the end)'")
for i in "${!ALLOC_VALUES[@]}"; do LIGHT_LIST+=("s_allocconf $i"); done
UUIDP=$(nvidia-smi --query-gpu=uuid --format=csv,noheader 2>/dev/null | head -1 | cut -c1-12)
[ -n "$UUIDP" ] && LIGHT_LIST+=("s_cvd cvd-uuid-prefix $UUIDP 'CUDA_VISIBLE_DEVICES=$UUIDP (a UUID prefix)'")
for s in "${LIGHT_LIST[@]}"; do
  only "$s" || continue
  while [ "$(jobs -rp | wc -l)" -ge $((PAR + 1)) ]; do wait -n; done
  if [ "$(elapsed)" -ge "$BUDGET" ]; then log "time budget spent: not staged: $s"; continue; fi
  log "start $s"; ( eval "$s" ) &
done
wait "$NVCC" 2>/dev/null
if only s_wrong_arch; then log "start s_wrong_arch"; ( s_wrong_arch ) & fi
wait
log "light scenarios done"

# --- memory scenarios, one at a time ---------------------------------------------------------------------
HEAVY_LIST=(s_jax_beside_torch s_torch_beside_jax "s_holder_state orphaned" "s_holder_state stopped" "s_holder_state live" s_too_big s_growth_rescue)
for i in "${!JAX_SETTINGS[@]}"; do HEAVY_LIST+=("s_jax_setting $i"); done
for s in "${HEAVY_LIST[@]}"; do
  only "$s" || continue
  if [ "$(elapsed)" -ge "$BUDGET" ]; then log "time budget spent: not staged: $s"; mkdir -p "$W/s/not-staged"; echo "$s" >> "$W/s/not-staged/list.txt"; continue; fi
  log "start $s"; eval "$s"
done
cleanup; : > "$STARTED"
fi

# --- the rows of issue 27: light ones side by side, then the memory ones one at a time, in their own budget --
if [ "$ROWS" != old ]; then
  new_setup; T1=$(date +%s); NEW_BUDGET=${TRUTH_NEW_BUDGET_S:-210}
  # the node facts alone first: another row's job on the GPU would change its clocks and link between the raw
  # read and check's own
  only s_node && { log "start s_node"; s_node; }
  for s in s_node_shm s_node_nobody "s_preload torch" "s_preload jax" s_truncated; do
    only "$s" || continue
    log "start $s"; ( eval "$s" ) &
  done
  wait
  log "new light rows done"
  for s in s_nearly_full s_two_frameworks s_other_user; do
    only "$s" || continue
    if [ $(( $(date +%s) - T1 )) -ge "$NEW_BUDGET" ]; then log "time budget spent: not staged: $s"; mkdir -p "$W/s/not-staged"; echo "$s" >> "$W/s/not-staged/list.txt"; continue; fi
    log "start $s"; eval "$s"
  done
  cleanup; : > "$STARTED"
fi

# --- the table -----------------------------------------------------------------------------------------------
log "judging"
node "$HERE/truth/judge.mjs" "$W" > "$W/truth-table.md" 2> "$W/judge.err" || { echo "judge failed:"; cat "$W/judge.err"; }
cp "$W/truth-table.md" "$OUT/truth-table.md" 2>/dev/null
tar -czf "$OUT/truth-table.tgz" -C "$W" . 2>/dev/null
# The device tool brings back files under 16 MiB: drop the HTML reports (then the run JSON) if it is bigger.
if [ "$(stat -c %s "$OUT/truth-table.tgz")" -gt 15000000 ]; then
  tar -czf "$OUT/truth-table.tgz" -C "$W" --exclude='*.html' . 2>/dev/null
  [ "$(stat -c %s "$OUT/truth-table.tgz")" -gt 15000000 ] && tar -czf "$OUT/truth-table.tgz" -C "$W" --exclude='*.html' --exclude='run-*.stderr' . 2>/dev/null
fi
log "done: $OUT/truth-table.md, $OUT/truth-table.tgz ($(du -h "$OUT/truth-table.tgz" | cut -f1))"
cat "$W/truth-table.md"
