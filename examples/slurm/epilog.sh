#!/bin/bash
# Slurm Epilog: after a job ends, report the processes it left on its GPUs (a DataLoader worker, a child that
# outlived its parent): they keep the memory and make the next job on these GPUs fail.
# Runs as root with SLURM_JOB_ID, SLURM_JOB_GPUS, SLURM_JOB_UID. Reports to syslog, slurmd's log and
# $GED_EPILOG_LOG; with GED_EPILOG_DRAIN=1 it also drains the node (as a non-zero Epilog would).
# It never kills anything: which process to end is a person's decision (gpu-env-doctor procs / fix).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
trap ged_fleet_snapshot EXIT   # for serve --fleet: this node's snapshot after every job (GED_SNAPSHOT_DIR)

rm -f "$GED_STATE_DIR/job-${SLURM_JOB_ID:-unknown}.txt" 2>/dev/null
gpus=$(ged_job_gpus)
[ -n "$gpus" ] || exit 0

# The job's own user: with exclusive GPUs, any of its processes still there is a leftover of this job.
owner=()
if [ -n "${SLURM_JOB_UID:-}" ]; then owner=(--user "$SLURM_JOB_UID"); elif [ -n "${SLURM_JOB_USER:-}" ]; then owner=(--user "$SLURM_JOB_USER"); fi

# Give processes that are exiting a moment to go.
sleep "${GED_EPILOG_GRACE:-2}"
left=$(ged_holders "$gpus" "${owner[@]}")
[ $? -eq 3 ] || exit 0

node=${SLURMD_NODENAME:-$(hostname -s)}
while IFS= read -r line; do
  ged_log "left behind: $line"
  printf '%s job=%s node=%s user=%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${SLURM_JOB_ID:-?}" "$node" "${SLURM_JOB_USER:-${SLURM_JOB_UID:-?}}" "$line" >> "$GED_EPILOG_LOG" 2>/dev/null || true
done <<< "$left"

if [ "$GED_EPILOG_DRAIN" = 1 ] && command -v scontrol >/dev/null 2>&1; then
  first=$(printf '%s\n' "$left" | head -1)
  scontrol update NodeName="$node" State=DRAIN Reason="gpu-env-doctor: job ${SLURM_JOB_ID:-?} left ${first:0:180}" || ged_log "scontrol update failed"
fi
exit 0
