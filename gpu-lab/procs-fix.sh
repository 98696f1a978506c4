#!/usr/bin/env bash
# GPU-machine proof for issue 10 (procs, fix, preamble). Run from the repo root on the H200, after
# `source .gpu-lab/env.sh` and the build (dist/cli.js):   OUT=/some/dir bash gpu-lab/procs-fix.sh
#
# 1. Starts test/fixtures/h200/hog.py (holds all GPU memory but 1200 MiB) from a subshell that exits at
#    once, so the hog is orphaned; waits until nvidia-smi lists it.
# 2. `procs` (expect: verdict orphaned), `fix --dry-run` (expect: the hog still runs), `fix --yes`
#    (expect: it ends the hog), then nvidia-smi shows the memory free again.
# 3. The torch preamble at the top of a tiny torch script: on a free GPU; while a second hog holds all
#    but 20000 MiB (expect: a warning naming it), once through nvidia-smi and once through NVML (no
#    nvidia-smi on PATH). The JAX preamble at the top of a tiny JAX script on the free GPU.
# Evidence in $OUT (7 files); every process started here is killed by PID on exit.
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
CLI=(node dist/cli.js)
PY=$(command -v python3)
TIMEOUT=$(command -v timeout)
WORK=$(mktemp -d)
STARTED=()
cleanup() {
  for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
SUM="$OUT/summary.txt"
: >"$SUM"
FAILS=0
say() { echo "$*" | tee -a "$SUM"; }
check() { # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then say "PASS $1"; else say "FAIL $1"; FAILS=$((FAILS + 1)); fi
}
smi_state() { # appends a labelled nvidia-smi reading to nvidia-smi.txt
  { echo "== $1 ($(date -u +%T))"; nvidia-smi --query-gpu=index,memory.total,memory.used,memory.free --format=csv
    nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv; echo; } >>"$OUT/nvidia-smi.txt" 2>&1
}
listed() { nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | tr -d ' ' | grep -qx "$1"; }
start_hog() { # start_hog KEEP_MIB SECONDS LOG: orphaned hog; prints its PID
  # Started by a shell that leads its own session and exits at once: PID 1 adopts the hog, whose session
  # stays the shell's. That is the evidence fix needs (issue 14); a hog that were itself a session leader
  # (setsid hog.py) would look like a daemon, and fix would leave it alone as "unknown".
  : >"$WORK/hog.pid"
  setsid bash -c "\"$PY\" test/fixtures/h200/hog.py $1 $2 >\"$3\" 2>&1 & echo \$! >\"$WORK/hog.pid\"" </dev/null
  for _ in $(seq 1 50); do [ -s "$WORK/hog.pid" ] && break; sleep 0.1; done
  cat "$WORK/hog.pid"
}
wait_listed() { for _ in $(seq 1 90); do listed "$1" && return 0; sleep 0.5; done; return 1; }
# hog.py prints "hog holding" once its memory is taken; from then on it only sleeps (no CPU use, which
# fix checks before ending anything)
wait_holding() { for _ in $(seq 1 60); do grep -q "hog holding" "$1" 2>/dev/null && { sleep 1; return 0; }; sleep 0.5; done; return 1; }
used_mib() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1 | tr -d ' '; }

say "procs-fix.sh on $(hostname), $(date -u +%FT%TZ); node $(node --version); python $PY"
: >"$OUT/nvidia-smi.txt"
smi_state "before"

# ---- 1. an orphaned hog --------------------------------------------------------------------------
HOG=$(start_hog 1200 120 "$OUT/hog.log")
STARTED+=("$HOG")
grep -q hog.py "/proc/$HOG/cmdline" 2>/dev/null
check "hog started as PID $HOG (its cmdline names hog.py)" $?
wait_listed "$HOG"
check "nvidia-smi lists the hog" $?
wait_holding "$OUT/hog.log"
check "the hog holds the memory and sleeps" $?
smi_state "hog running"
say "hog: parent now $(awk '{print $4}' /proc/$HOG/stat) ($(cat /proc/$(awk '{print $4}' /proc/$HOG/stat)/comm 2>/dev/null)); used $(used_mib) MiB"

# ---- 2. procs, fix --dry-run, fix --yes ------------------------------------------------------------
{ echo "\$ gpu-env-doctor procs"; timeout 60 "${CLI[@]}" procs; echo "(exit $?)"
  echo; echo "\$ gpu-env-doctor procs --json"; timeout 60 "${CLI[@]}" procs --json; echo "(exit $?)"; } >"$OUT/procs.txt" 2>&1
grep -E "^[0-9,-]+ +$HOG " "$OUT/procs.txt" | head -1 | tee -a "$SUM" | grep -q ' orphaned '
check "procs shows the hog as orphaned" $?

{ echo "\$ gpu-env-doctor fix --dry-run"; timeout 60 "${CLI[@]}" fix --dry-run; echo "(exit $?)"; } >"$OUT/fix.txt" 2>&1
[ -d "/proc/$HOG" ] && [ "$(awk '{print $3}' /proc/$HOG/stat)" != Z ]
check "fix --dry-run left the hog running" $?
grep -qE "end +PID $HOG " "$OUT/fix.txt"
check "the plan ends PID $HOG" $?

BEFORE=$(used_mib)
{ echo; echo "\$ gpu-env-doctor fix --yes"; timeout 90 "${CLI[@]}" fix --yes; echo "(exit $?)"; } >>"$OUT/fix.txt" 2>&1
grep -E "ended PID $HOG|PID $HOG" "$OUT/fix.txt" | tail -1 | tee -a "$SUM" >/dev/null
grep -q "✓ ended PID $HOG" "$OUT/fix.txt"
check "fix --yes ended the hog" $?
for _ in $(seq 1 40); do listed "$HOG" || break; sleep 0.25; done
! listed "$HOG"
check "nvidia-smi no longer lists the hog" $?
AFTER=$(used_mib)
smi_state "after fix --yes"
say "GPU memory used: $BEFORE MiB with the hog, $AFTER MiB after fix --yes"
[ "${AFTER:-999999}" -lt 4096 ]
check "the memory is free again (under 4 GiB used)" $?
{ echo; echo "\$ gpu-env-doctor procs   # after fix"; timeout 60 "${CLI[@]}" procs; echo "(exit $?)"; } >>"$OUT/procs.txt" 2>&1

# ---- 3. the preamble in tiny torch and JAX scripts ------------------------------------------------
"${CLI[@]}" preamble --framework torch >"$WORK/train_torch.py"
cat >>"$WORK/train_torch.py" <<'PYEOF'
import torch
x = torch.randn(2048, 2048, device="cuda")
print("torch matmul ok:", float((x @ x).float().abs().sum()) > 0, flush=True)
PYEOF
"${CLI[@]}" preamble --framework jax >"$WORK/train_jax.py"
cat >>"$WORK/train_jax.py" <<'PYEOF'
import jax.numpy as jnp
x = jnp.ones((2048, 2048))
print("jax matmul ok:", float((x @ x).sum()) == 2048.0 ** 3, flush=True)
PYEOF
"$PY" -m py_compile "$WORK/train_torch.py" "$WORK/train_jax.py"
check "both scripts compile" $?

{ echo "### torch, free GPU, nvidia-smi on PATH"; timeout 60 "$PY" "$WORK/train_torch.py"; echo "(exit $?)"; } >"$OUT/preamble-torch.txt" 2>&1
grep -q "torch matmul ok: True" "$OUT/preamble-torch.txt" && grep -q "\[gpu-check\] torch uses cuda:0" "$OUT/preamble-torch.txt"
check "torch script with the preamble ran" $?

HOG2=$(start_hog 20000 60 "$WORK/hog2.log")
STARTED+=("$HOG2")
wait_listed "$HOG2" && wait_holding "$WORK/hog2.log"
check "second hog (PID $HOG2) listed" $?
{ echo; echo "### torch, a second process (PID $HOG2) holds all but 20000 MiB, nvidia-smi on PATH"
  timeout 60 "$PY" "$WORK/train_torch.py"; echo "(exit $?)"
  echo; echo "### the same, without nvidia-smi on PATH (the preamble falls back to NVML through ctypes)"
  mkdir -p "$WORK/empty"; PATH="$WORK/empty" "$TIMEOUT" 60 "$PY" "$WORK/train_torch.py"; echo "(exit $?)"; } >>"$OUT/preamble-torch.txt" 2>&1
[ "$(grep -c "PID $HOG2 " "$OUT/preamble-torch.txt")" -ge 2 ]
check "the preamble warned about PID $HOG2, through nvidia-smi and through NVML" $?
grep -q "(NVML)" "$OUT/preamble-torch.txt"
check "the NVML fallback answered" $?
kill -KILL "$HOG2" 2>/dev/null
for _ in $(seq 1 40); do listed "$HOG2" || break; sleep 0.25; done

{ echo "### jax, free GPU"; timeout 60 "$PY" "$WORK/train_jax.py"; echo "(exit $?)"; } >"$OUT/preamble-jax.txt" 2>&1
grep -q "jax matmul ok: True" "$OUT/preamble-jax.txt" && grep -q "\[gpu-check\] jax " "$OUT/preamble-jax.txt"
check "JAX script with the preamble ran" $?
grep -h "^\[gpu-check\]" "$OUT/preamble-torch.txt" "$OUT/preamble-jax.txt" | sort -u | head -30 >>"$SUM"
smi_state "end"

say "$FAILS failed"
exit $((FAILS > 0))
