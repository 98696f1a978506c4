# Shared by the gpu-env-doctor Slurm scripts: settings (override them in the environment slurmd runs the
# scripts with, or edit here), the job's GPUs and logging. Sourced, not run.

GED_BIN=${GED_BIN:-gpu-env-doctor}
GED_NODE=${GED_NODE:-node}
GED_HELPER=${GED_HELPER:-$(dirname "${BASH_SOURCE[0]}")/gpu-holders.mjs}
# Notes the prolog leaves for the job's TaskProlog: must be readable by the job's user.
GED_STATE_DIR=${GED_STATE_DIR:-/run/gpu-env-doctor}
# drain: a GPU held by a leftover refuses the job (the node is drained, Slurm requeues the job elsewhere).
# warn: the job runs, and its output says which process holds its GPU.
GED_PROLOG_MODE=${GED_PROLOG_MODE:-drain}
GED_EPILOG_LOG=${GED_EPILOG_LOG:-/var/log/gpu-env-doctor-epilog.log}
# 1: the epilog drains the node when the job left processes on its GPUs.
GED_EPILOG_DRAIN=${GED_EPILOG_DRAIN:-0}
# Seconds each probe (nvidia-smi) may take: a prolog must not hang the node.
GED_TIMEOUT=${GED_TIMEOUT:-20}
# For `gpu-env-doctor serve --fleet DIR` (one live page for the cluster): after every job the epilog writes this
# node's snapshot to DIR/NODE.json, a folder every node shares (empty: off). Who may write DIR: the nodes only
# (root, or the account the epilog runs as). With NFS root squashing, make it writable by that account and
# sticky (chmod 1770 or 1777), never plainly writable by others: whoever can rename files in DIR could swap the
# temporary file for a link. The epilog refuses a DIR that others can write without the sticky bit.
GED_SNAPSHOT_DIR=${GED_SNAPSHOT_DIR:-}

# The job's GPUs as indexes ("0,2"). Prolog and Epilog get SLURM_JOB_GPUS; CUDA_VISIBLE_DEVICES is the task's.
ged_job_gpus() {
  local g=${SLURM_JOB_GPUS:-${SLURM_STEP_GPUS:-${CUDA_VISIBLE_DEVICES:-}}}
  # keep plain indexes only (UUIDs or MIG names in CUDA_VISIBLE_DEVICES cannot be matched to nvidia-smi indexes here)
  printf '%s' "$g" | tr ',' '\n' | grep -E '^[0-9]+$' | paste -sd, -
}

# To syslog (journalctl -t gpu-env-doctor) and to stderr, which slurmd writes to its own log.
ged_log() {
  printf 'gpu-env-doctor[%s]: %s\n' "${SLURM_JOB_ID:-?}" "$*" >&2
  if command -v logger >/dev/null 2>&1; then logger -t gpu-env-doctor -p user.warning -- "job ${SLURM_JOB_ID:-?}: $*" || true; fi
}

# Runs `check --json` and prints the processes on the given GPUs (one line each).
# Returns 0 none, 3 some, 2 gpu-env-doctor itself failed (then nothing is printed).
ged_holders() {
  local gpus=$1; shift
  local json rc
  json=$("$GED_BIN" check --json --timeout "$GED_TIMEOUT" 2>/dev/null)
  rc=$?
  # check exits 0 (fine) or 1 (findings): both carry the facts. 2 or more: the tool failed.
  if [ "$rc" -ge 2 ] || [ -z "$json" ]; then
    ged_log "gpu-env-doctor check failed (exit $rc); not judging the GPUs"
    return 2
  fi
  printf '%s' "$json" | "$GED_NODE" "$GED_HELPER" --gpus "$gpus" "$@"
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    ged_log "could not read gpu-env-doctor's output (helper exit $rc)"
    return 2
  fi
  return "$rc"
}

# This node's snapshot into $GED_SNAPSHOT_DIR, written beside it then renamed: serve never reads half a file.
# The temporary file is made by mktemp (a new file of an unpredictable name, O_EXCL: never an existing file or a
# planted link); mv renames it over NODE.json, replacing a link there instead of writing through it.
ged_fleet_snapshot() {
  [ -n "$GED_SNAPSHOT_DIR" ] || return 0
  local node=${SLURMD_NODENAME:-$(hostname -s)}
  local dir=$GED_SNAPSHOT_DIR tmp
  if [ ! -d "$dir" ] || [ -L "$dir" ]; then ged_log "not writing the snapshot: $dir is not a folder"; return 0; fi
  # group- or world-writable without the sticky bit: another user could replace the temporary file
  if [ -n "$(find "$dir" -maxdepth 0 -perm /022 ! -perm -1000 -print 2>/dev/null)" ]; then
    ged_log "not writing the snapshot: other users can write $dir and it is not sticky (chmod +t, or a folder only the nodes write)"
    return 0
  fi
  tmp=$(mktemp "$dir/.$node.json.XXXXXXXX") || { ged_log "not writing the snapshot: cannot create a file in $dir"; return 0; }
  if "$GED_BIN" snapshot --timeout "$GED_TIMEOUT" > "$tmp" 2>/dev/null && chmod 0644 "$tmp"; then mv -f "$tmp" "$dir/$node.json"; else rm -f "$tmp"; fi
  return 0
}
