#!/bin/bash
# Slurm TaskProlog: runs as the job's user before each task. Lines it prints as "print TEXT" go to the
# task's standard output (Slurm's documented TaskProlog protocol), so the job's log names the process the
# prolog found on its GPUs. Printed by the first task only.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
[ "${SLURM_PROCID:-0}" = 0 ] || exit 0
note="$GED_STATE_DIR/job-${SLURM_JOB_ID:-unknown}.txt"
[ -r "$note" ] || exit 0
while IFS= read -r line; do
  printf 'print %s\n' "$line"
done < "$note"
exit 0
