#!/usr/bin/env bash
# GPU-machine proof for issue 14 (fix ends only what is provably stale). Run from the repo root on the H200,
# after `source .gpu-lab/env.sh` and the build (dist/cli.js):   OUT=/some/dir bash gpu-lab/safety.sh
#
# Stages four real GPU holders (test/fixtures/h200/hog.py, each holding about HOG_MIB of GPU memory):
#   orphan     its parent exited: started by a shell that leads its own session and exits at once, so
#              PID 1 (process_api) adopts it while its session stays the shell's      expect: orphaned, end
#   parented   its parent (a bash that waits for it) is alive                            expect: not stale, keep
#   supervised the child of a small Python supervisor (named "supervisord") that waits  expect: unknown, keep
#   stopped    SIGSTOP'd, its parent alive                                               expect: stopped, end
# then records `procs`, `procs --json`, `fix --dry-run` and `fix --dry-run --json` (the verdict, the reason and
# the facts behind it for each), then `fix --yes` and which of the four are still alive (expect: parented and
# supervised). If this container may create PID namespaces, a fifth: a hog under a bash that is PID 1 of
# its own namespace (expect: unknown, keep).
# Evidence in $OUT; every process started here is killed by PID on exit.
#
# Tested here without a GPU with HOG_SCRIPT (a stand-in that holds /dev/nvidia0 open) and a fake nvidia-smi;
# see docs/notes/issue-14-safety.md.
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
CLI=(node dist/cli.js)
# the interpreter itself, not a wrapper (a pyenv shim would put a shell between the parent and the hog)
PY=${PY:-$(python3 -c "import sys; print(sys.executable)")}
HOG_SCRIPT=${HOG_SCRIPT:-test/fixtures/h200/hog.py}
HOG_MIB=${HOG_MIB:-4096}
HOG_SECONDS=${HOG_SECONDS:-150}
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
check() { # check NAME EXIT-CODE-OF-THE-CONDITION
  if [ "$2" -eq 0 ]; then say "PASS $1"; else say "FAIL $1"; FAILS=$((FAILS + 1)); fi
}
listed() { nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | tr -d ' ' | grep -qx "$1"; }
wait_listed() { for _ in $(seq 1 90); do listed "$1" && return 0; sleep 0.5; done; return 1; }
# hog.py prints "hog holding" once its memory is taken; from then on it only sleeps
wait_holding() { for _ in $(seq 1 90); do grep -q "hog holding" "$1" 2>/dev/null && { sleep 1; return 0; }; sleep 0.5; done; return 1; }
free_mib() { nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits | head -1 | tr -d ' '; }
alive() { [ -d "/proc/$1" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# hog.py keeps KEEP MiB free and takes the rest: to take about HOG_MIB, keep what is free now minus HOG_MIB
keep_arg() { echo $(( $(free_mib) - HOG_MIB )); }
facts() { # the /proc facts the verdict rests on: PID PPID(comm) PGID SID STATE
  local p=$1 pp
  pp=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null)
  echo "pid $p state $(awk '{print $3}' "/proc/$p/stat") ppid $pp ($(cat "/proc/$pp/comm" 2>/dev/null)) pgid $(awk '{print $5}' "/proc/$p/stat") sid $(awk '{print $6}' "/proc/$p/stat"); parent sid $(awk '{print $6}' "/proc/$pp/stat" 2>/dev/null)"
}

say "safety.sh on $(hostname), $(date -u +%FT%TZ); node $(node --version); python $PY"
say "PID 1 here: $(cat /proc/1/comm) (session $(awk '{print $6}' /proc/1/stat)); this script: PID $$ session $(awk '{print $6}' /proc/$$/stat)"
nvidia-smi --query-gpu=index,memory.total,memory.used,memory.free --format=csv >"$OUT/nvidia-smi-before.txt" 2>&1

# ---- 1. the orphan: its parent (a session leader) exits at once ---------------------------------------
setsid bash -c "\"$PY\" \"$HOG_SCRIPT\" $(keep_arg) $HOG_SECONDS >\"$WORK/orphan.log\" 2>&1 & echo \$! >\"$WORK/orphan.pid\"" </dev/null
for _ in $(seq 1 50); do [ -s "$WORK/orphan.pid" ] && break; sleep 0.1; done
ORPHAN=$(cat "$WORK/orphan.pid"); STARTED+=("$ORPHAN")
wait_listed "$ORPHAN" && wait_holding "$WORK/orphan.log"
check "orphan (PID $ORPHAN) holds GPU memory" $?
say "orphan:     $(facts "$ORPHAN")"

# ---- 2. a holder whose parent is alive and waits for it ----------------------------------------------
K=$(keep_arg) # (computed first: a $(…) inside the background command would be its first child)
bash -c "\"$PY\" \"$HOG_SCRIPT\" $K $HOG_SECONDS >\"$WORK/parented.log\" 2>&1; true" </dev/null &
PARENT_BASH=$!; STARTED+=("$PARENT_BASH")
for _ in $(seq 1 50); do PARENTED=$(pgrep -P "$PARENT_BASH" | head -1); [ -n "$PARENTED" ] && break; sleep 0.1; done
STARTED+=("$PARENTED")
wait_listed "$PARENTED" && wait_holding "$WORK/parented.log"
check "parented (PID $PARENTED, parent bash $PARENT_BASH) holds GPU memory" $?
say "parented:   $(facts "$PARENTED")"

# ---- 3. the child of a supervisor that started it and waits for it ------------------------------------
cat >"$WORK/supervisor.py" <<'PYEOF'
import ctypes, subprocess, sys
ctypes.CDLL(None).prctl(15, b"supervisord", 0, 0, 0)  # PR_SET_NAME: comm = supervisord
log = open(sys.argv[3], "w")
p = subprocess.Popen([sys.executable, sys.argv[1]] + sys.argv[4:], stdout=log, stderr=log)
open(sys.argv[2], "w").write(str(p.pid))
sys.exit(p.wait())
PYEOF
K=$(keep_arg)
"$PY" "$WORK/supervisor.py" "$HOG_SCRIPT" "$WORK/supervised.pid" "$WORK/supervised.log" "$K" "$HOG_SECONDS" </dev/null &
SUPERVISOR=$!; STARTED+=("$SUPERVISOR")
for _ in $(seq 1 50); do [ -s "$WORK/supervised.pid" ] && break; sleep 0.1; done
SUPERVISED=$(cat "$WORK/supervised.pid"); STARTED+=("$SUPERVISED")
wait_listed "$SUPERVISED" && wait_holding "$WORK/supervised.log"
check "supervised (PID $SUPERVISED, supervisor $SUPERVISOR) holds GPU memory" $?
say "supervised: $(facts "$SUPERVISED")"

# ---- 4. a stopped holder (Ctrl-Z / SIGSTOP), its parent alive ----------------------------------------
K=$(keep_arg)
bash -c "\"$PY\" \"$HOG_SCRIPT\" $K $HOG_SECONDS >\"$WORK/stopped.log\" 2>&1; true" </dev/null &
STOP_BASH=$!; STARTED+=("$STOP_BASH")
for _ in $(seq 1 50); do STOPPED=$(pgrep -P "$STOP_BASH" | head -1); [ -n "$STOPPED" ] && break; sleep 0.1; done
STARTED+=("$STOPPED")
wait_listed "$STOPPED" && wait_holding "$WORK/stopped.log"
kill -STOP "$STOPPED"
for _ in $(seq 1 20); do [ "$(awk '{print $3}' "/proc/$STOPPED/stat")" = T ] && break; sleep 0.1; done
[ "$(awk '{print $3}' "/proc/$STOPPED/stat")" = T ]
check "stopped (PID $STOPPED) holds GPU memory and is stopped" $?
say "stopped:    $(facts "$STOPPED")"
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >"$OUT/nvidia-smi-apps.txt" 2>&1

# ---- 5. (when allowed) a job under a bash that is PID 1 of its own PID namespace ----------------------
NS_HOST=""
if unshare -pf --mount-proc true 2>/dev/null; then
  K=$(keep_arg)
  unshare -pf --mount-proc bash -c "\"$PY\" \"$HOG_SCRIPT\" $K $HOG_SECONDS >\"$WORK/ns.log\" 2>&1; true" </dev/null &
  NS_UNSHARE=$!; STARTED+=("$NS_UNSHARE")
  for _ in $(seq 1 50); do
    NS_HOST=$(for p in $(pgrep -f "$HOG_SCRIPT"); do grep -q "^NSpid:.*[[:space:]]2$" "/proc/$p/status" 2>/dev/null && echo "$p"; done | head -1)
    [ -n "$NS_HOST" ] && break; sleep 0.2
  done
  if [ -n "$NS_HOST" ]; then STARTED+=("$NS_HOST"); wait_listed "$NS_HOST" && wait_holding "$WORK/ns.log"; say "pid-ns job: $(facts "$NS_HOST") (PID 2 in its namespace)"; fi
else
  say "SKIP the PID-1 shell in a PID namespace: unshare -pf is not allowed in this container"
fi

# ---- procs and fix --dry-run: the verdicts -----------------------------------------------------------
{ echo "\$ gpu-env-doctor procs"; timeout 60 "${CLI[@]}" procs -v; echo "(exit $?)"; } >"$OUT/procs.txt" 2>&1
timeout 60 "${CLI[@]}" procs --json >"$OUT/procs.json" 2>"$OUT/procs.stderr"
{ echo "\$ gpu-env-doctor fix --dry-run"; timeout 60 "${CLI[@]}" fix --dry-run; echo "(exit $?)"; } >"$OUT/fix-dry-run.txt" 2>&1
timeout 60 "${CLI[@]}" fix --dry-run --json >"$OUT/fix-dry-run.json" 2>"$OUT/fix-dry-run.stderr"

verdict() { # verdict PID: the verdict procs --json gives
  node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const p = d.processes.find((x) => x.pid === Number(process.argv[2]) || x.nvidiaSmiPid === Number(process.argv[2])); console.log(p ? `${p.verdict}\t${p.reason}` : "not listed")' "$OUT/procs.json" "$1"
}
action() { # action PID: end / skip / keep / none, from fix --dry-run --json
  node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const n = Number(process.argv[2]); const st = d.processes.find((x) => x.pid === n); const k = (d.leftAlone || []).find((x) => x.pid === n); console.log(st ? st.action + (st.blocked ? ` (${st.blocked})` : "") : k ? `keep (${k.verdict}: ${k.why})` : "none")' "$OUT/fix-dry-run.json" "$1"
}
say ""
say "verdicts (procs --json) and fix --dry-run actions:"
for pair in "orphan:$ORPHAN:orphaned:end" "parented:$PARENTED:-:keep" "supervised:$SUPERVISED:unknown:keep" "stopped:$STOPPED:stopped:end"; do
  IFS=: read -r label pid want_verdict want_action <<<"$pair"
  v=$(verdict "$pid"); a=$(action "$pid")
  say "  $label PID $pid: verdict ${v%%$'\t'*} — ${v#*$'\t'}"
  say "  $label PID $pid: fix --dry-run: $a"
  if [ "$want_verdict" = "-" ]; then case "${v%%$'\t'*}" in orphaned | stopped | zombie | idle) false ;; *) true ;; esac; else [ "${v%%$'\t'*}" = "$want_verdict" ]; fi
  check "$label: verdict ${v%%$'\t'*} (expected ${want_verdict/-/not stale})" $?
  case "$a" in "$want_action"*) true ;; *) false ;; esac
  check "$label: the plan says $want_action" $?
done
if [ -n "$NS_HOST" ]; then
  v=$(verdict "$NS_HOST"); say "  pid-ns job (host PID $NS_HOST): verdict ${v%%$'\t'*} — ${v#*$'\t'}"
  say "  pid-ns job: fix --dry-run: $(action "$NS_HOST")"
  case "${v%%$'\t'*}" in orphaned | stopped | zombie | idle) false ;; *) true ;; esac
  check "pid-ns job: not stale" $?
fi

# ---- fix --yes: ends the orphan and the stopped one, leaves the others -------------------------------
{ echo "\$ gpu-env-doctor fix --yes --grace 3"; timeout 90 "${CLI[@]}" fix --yes --grace 3; echo "(exit $?)"; } >"$OUT/fix-yes.txt" 2>&1
sleep 1
! alive "$ORPHAN"; check "fix --yes ended the orphan" $?
! alive "$STOPPED"; check "fix --yes ended the stopped holder" $?
alive "$PARENTED"; check "fix --yes left the parented holder alive" $?
alive "$SUPERVISED"; check "fix --yes left the supervised holder alive" $?
alive "$SUPERVISOR"; check "fix --yes left the supervisor alive" $?
if [ -n "$NS_HOST" ]; then alive "$NS_HOST"; check "fix --yes left the pid-ns job alive" $?; fi
grep -E "^(✓|✗|-) " "$OUT/fix-yes.txt" | tee -a "$SUM" >/dev/null
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >"$OUT/nvidia-smi-after.txt" 2>&1

say "$FAILS failed"
exit $((FAILS > 0))
