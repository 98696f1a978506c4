#!/bin/bash
# Slurm Prolog: before a job starts on this node, refuse its GPUs if a leftover process holds them.
#
#   slurm.conf:  Prolog=/etc/slurm/gpu-env-doctor/prolog.sh
#                TaskProlog=/etc/slurm/gpu-env-doctor/task-prolog.sh
#                Epilog=/etc/slurm/gpu-env-doctor/epilog.sh
#
# Runs as root (SlurmdUser) on the node, with SLURM_JOB_ID, SLURM_JOB_GPUS, SLURM_JOB_USER in its
# environment. Slurm's conventions: a Prolog's output does not reach the job; a non-zero exit drains the
# node and requeues the job. So, when a process holds one of the job's GPUs:
#   - the process is named in syslog and slurmd's log, and as the node's drain reason (sinfo -R);
#   - a note for the job is left in $GED_STATE_DIR, which task-prolog.sh prints into the job's output
#     (TaskProlog "print" lines) when the job runs (GED_PROLOG_MODE=warn);
#   - GED_PROLOG_MODE=drain (default): exit 1, so the job goes elsewhere and nobody else lands here.
# If gpu-env-doctor itself fails, the job is not refused (exit 0): a broken check must not drain the cluster.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

gpus=$(ged_job_gpus)
[ -n "$gpus" ] || exit 0 # a job without GPUs

held=$(ged_holders "$gpus")
case $? in
  0) exit 0 ;;
  3) ;;
  *) exit 0 ;;
esac

node=${SLURMD_NODENAME:-$(hostname -s)}
mkdir -p "$GED_STATE_DIR" && chmod 755 "$GED_STATE_DIR"
note="$GED_STATE_DIR/job-${SLURM_JOB_ID:-unknown}.txt"
{
  echo "gpu-env-doctor: GPU $gpus given to job ${SLURM_JOB_ID:-?} on $node is held by a leftover process:"
  printf '%s\n' "$held" | sed 's/^/gpu-env-doctor:   /'
} > "$note"
chmod 644 "$note"
while IFS= read -r line; do ged_log "$line"; done <<< "$held"

if [ "$GED_PROLOG_MODE" = warn ]; then
  exit 0
fi
first=$(printf '%s\n' "$held" | head -1)
if command -v scontrol >/dev/null 2>&1; then
  # A readable reason in `sinfo -R` instead of Slurm's bare "Prolog error".
  scontrol update NodeName="$node" State=DRAIN Reason="gpu-env-doctor: ${first:0:200}" || ged_log "scontrol update failed"
fi
exit 1
