#!/usr/bin/env bash
# Issue 14 on the H200: what "orphaned" needs. Two real CUDA holders whose starting shell has exited:
#   A: forked in the session of whatever ran this script
#   B: forked from a shell that had its own session (a terminal, ssh, tmux), as a leftover usually arises
# Both starting shells exit at once, so both holders are real leftovers. Where the shell that runs this script has
# a session of its own (the H200's `run` shell does: sid 436 under process_api's sid 0), A carries the same
# evidence as B and both must be "orphaned" and planned. Where it shares PID 1's session (a CI runner: sid 0), A
# carries none and must be "unknown", never planned — test/procs covers that case with fixtures, and the test
# helpers now make leftovers the way B is made (test/helpers/orphan.ts). fix runs with --dry-run only.
# Result on the H200: docs/evidence/safety/h200-session-evidence.txt.
# there: source .gpu-lab/env.sh && bash gpu-lab/session-evidence.sh
set -u
PY=${PY:-/opt/torch/.venv/bin/python3}
HOLD='import torch,time; x=torch.empty(256<<20,dtype=torch.uint8,device="cuda"); print("holding",flush=True); time.sleep(90)'
trap 'pkill -f "time.sleep(90)" 2>/dev/null' EXIT
sh -c "\"$PY\" -c '$HOLD' >/tmp/holder-a.log 2>&1 & echo \$! > /tmp/holder-a.pid"
setsid sh -c "\"$PY\" -c '$HOLD' >/tmp/holder-b.log 2>&1 & echo \$! > /tmp/holder-b.pid"
for i in $(seq 60); do grep -q holding /tmp/holder-a.log 2>/dev/null && grep -q holding /tmp/holder-b.log 2>/dev/null && break; sleep 0.5; done
A=$(cat /tmp/holder-a.pid); B=$(cat /tmp/holder-b.pid)
echo "this script: pid $$ sid $(awk '{print $6}' /proc/$$/stat); PID 1: $(cat /proc/1/comm) sid $(awk '{print $6}' /proc/1/stat)"
echo "A: pid $A ppid $(awk '{print $4}' /proc/$A/stat) sid $(awk '{print $6}' /proc/$A/stat)"
echo "B: pid $B ppid $(awk '{print $4}' /proc/$B/stat) sid $(awk '{print $6}' /proc/$B/stat)"
node dist/cli.js procs -v; echo "procs exit $?"
node dist/cli.js fix --dry-run; echo "fix --dry-run exit $?"
