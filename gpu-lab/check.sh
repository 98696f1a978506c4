#!/usr/bin/env bash
# Issue 2 proof: `check` idle, then with hog.py holding memory from a process whose parent has exited.
# Also records how the container sees GPU processes (host PID from nvidia-smi vs /proc here).
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
CLI="node dist/cli.js"
echo "== idle"; $CLI check -v | tee "$OUT/check-idle.txt"; echo "exit=$?"
$CLI snapshot > "$OUT/snapshot-idle.json"
echo "== speed (10 runs of check --json, ms each)"
for i in $(seq 10); do s=$(date +%s%N); $CLI check --json >/dev/null; e=$(date +%s%N); echo $(( (e-s)/1000000 )); done | tee "$OUT/speed.txt" | tr '\n' ' '; echo
# An orphaned hog: the subshell that starts it exits at once, so its parent is gone.
( python3 test/fixtures/h200/hog.py 1200 120 > /tmp/hog.log 2>&1 & )
for i in $(seq 60); do grep -q holding /tmp/hog.log 2>/dev/null && break; sleep 0.5; done
cat /tmp/hog.log
HOG=$(pgrep -f 'hog.py 1200' | head -1)
{
  echo "hog pid here: $HOG"; nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv
  echo "--- /proc/$HOG/status"; grep -E 'PPid|NSpid|Uid|State' /proc/$HOG/status
  echo "--- /proc/$HOG/sched"; head -1 /proc/$HOG/sched
  echo "--- ns"; readlink /proc/$HOG/ns/pid /proc/self/ns/pid
  echo "--- fds"; ls -l /proc/$HOG/fd | grep nvidia | head
} > "$OUT/hog-pids.txt" 2>&1
cat "$OUT/hog-pids.txt"
echo "== with the hog"; $CLI check -v | tee "$OUT/check-hog.txt"; echo "exit=$?"
$CLI snapshot > "$OUT/snapshot-hog.json"
kill "$HOG" 2>/dev/null; sleep 2; pkill -f 'hog.py 1200' 2>/dev/null
nvidia-smi --query-gpu=memory.used --format=csv
