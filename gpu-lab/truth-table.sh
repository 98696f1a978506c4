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
#
# Time: light scenarios run side by side (TRUTH_PAR at once, JAX without preallocation so they do not starve
# each other); scenarios that fill GPU memory run one after another. Every command has a time limit, no new
# scenario starts after TRUTH_BUDGET_S seconds, and every process started here is ended on exit.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
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
  if [ "$DEEP_FRAMEWORKS" = 1 ]; then
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
  begin compat-libcuda "forward-compat libcuda first (LD_LIBRARY_PATH=/usr/local/cuda-13.0/compat, error 803)" torch driver_too_old
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
    orphaned) ( env "$PY" "$JOBS/hog.py" 1200 120 > "$D/holder.out" 2>&1 & echo $! > "$D/holder.pid" ); pid=$(cat "$D/holder.pid"); echo "$pid" >> "$STARTED" ;;
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

# --- setup -------------------------------------------------------------------------------------------------
# TRUTH_ONLY: only the scenarios whose call matches
only() { [ -z "${TRUTH_ONLY:-}" ] || printf '%s\n' "$1" | grep -Eq -- "$TRUTH_ONLY"; }
log "truth table on $(uname -n) into $OUT (work folder $W)"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; "$PY" -c 'import sys, torch, jax; print(sys.version.split()[0], "torch", torch.__version__, "jax", jax.__version__)'; node --version; } > "$W/machine.txt" 2>&1
cat "$W/machine.txt"
DEEP_FRAMEWORKS=0
"${CLI[@]}" check --help 2>&1 | grep -q 'deep=frameworks' && DEEP_FRAMEWORKS=1
echo "deep_frameworks=$DEEP_FRAMEWORKS" >> "$W/machine.txt"
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
