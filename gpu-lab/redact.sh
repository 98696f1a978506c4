#!/usr/bin/env bash
# GPU-machine proof for issue 14 point 2 (--redact everywhere and complete). Run from the repo root on the
# H200, after `source .gpu-lab/env.sh` and the build (dist/cli.js):   OUT=/some/dir bash gpu-lab/redact.sh
#
# The machine's real identifying values (host name, GPU UUID and serial, IP and MAC addresses) plus planted
# ones: a user "zqlab" whose home is /scratch/zqlab_home (outside /home, not named after it) running a GPU
# hog whose command line carries a token and another host, environment values with glued names
# (CONDA_PREFIX=/opt/conda/envs/zqlab_env) and other users' homes. Every command that shows machine facts runs
# with --redact in each output format it has; none of those values may appear in stdout, stderr or a written
# report. Each is also run once without --redact, to show the values do reach the output (a real check).
# Evidence in $OUT: one file per command (redacted output), summary.txt. The hog is killed by PID on exit and
# the planted user removed.
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
CLI=(node "$PWD/dist/cli.js")
PY=$(command -v python3)
WORK=$(mktemp -d)
chmod 755 "$WORK"
STARTED=()
MADE_USER=0
cleanup() {
  for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [ "$MADE_USER" = 1 ] && userdel -r zqlab >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
SUM="$OUT/summary.txt"
: >"$SUM"
FAILS=0
say() { echo "$*" | tee -a "$SUM"; }
check() { if [ "$2" -eq 0 ]; then say "PASS $1"; else say "FAIL $1"; FAILS=$((FAILS + 1)); fi; }

say "redact.sh on $(hostname), $(date -u +%FT%TZ); node $(node --version)"

# ---- the values that must not leave the machine ----------------------------------------------------
CANARIES="$WORK/canaries.txt"
{
  hostname; hostname -s 2>/dev/null; hostname -f 2>/dev/null
  nvidia-smi --query-gpu=uuid,serial --format=csv,noheader 2>/dev/null | tr ',' '\n' | tr -d ' ' | grep -E '^(GPU-[0-9a-fA-F-]{36}|[0-9]{6,})$'
  hostname -I 2>/dev/null | tr ' ' '\n'
  cat /sys/class/net/*/address 2>/dev/null | grep -v '^00:00:00:00:00:00$'
  echo zqdave; echo hf_GPULABsecret; echo gpu-lab-node-17; echo zqpassw0rd
} | sed 's/[[:space:]]//g' | grep -v -x -E '|N/A|\[N/A\]|localhost|127\..*|::1' | sort -u >"$CANARIES"
leaks() { # leaks FILE...: prints the watched values found (host names as whole words: "vm" is a word elsewhere)
  local v
  while IFS= read -r v; do
    if [ ${#v} -le 4 ]; then grep -q -i -w -F -- "$v" "$@" 2>/dev/null && echo "$v"
    else grep -q -i -F -- "$v" "$@" 2>/dev/null && echo "$v"; fi
  done <"$CANARIES"
}

# ---- a planted user with a home outside /home, running a GPU hog with secrets in its command line ------
RUNAS=()
if [ -z "${NO_PLANTED_USER:-}" ] && command -v useradd >/dev/null && useradd -M -d /scratch/zqlab_home -s /bin/sh zqlab 2>/dev/null; then
  MADE_USER=1; mkdir -p /scratch/zqlab_home; chown zqlab /scratch/zqlab_home; RUNAS=(runuser -u zqlab --)
  printf 'zqlab\nzqlab_home\n' >>"$CANARIES"   # known from /etc/passwd only
  say "planted user zqlab (home /scratch/zqlab_home)"
else
  say "could not add a user (no useradd, not root, or NO_PLANTED_USER): the hog runs as $(id -un); zqlab not watched"
fi
say "values watched: $(wc -l <"$CANARIES") ($(tr '\n' ' ' <"$CANARIES" | sed -E 's/[0-9a-f]{8}-[0-9a-f-]{27}/GPU-uuid/g'))"
cp "$CANARIES" "$OUT/watched-values.txt"
cp test/fixtures/h200/hog.py "$WORK/hog.py" && chmod 644 "$WORK/hog.py"   # readable by zqlab wherever the repo is
( cd /tmp && setsid "${RUNAS[@]}" "$PY" "$WORK/hog.py" 130000 150 --token=hf_GPULABsecret0123456789 \
    --password zqpassw0rd --master gpu-lab-node-17.cluster.local >"$WORK/hog.log" 2>&1 & echo $! >"$WORK/hog.pid" )
HOG=$(cat "$WORK/hog.pid"); STARTED+=("$HOG")
for _ in $(seq 1 60); do grep -q "hog holding" "$WORK/hog.log" 2>/dev/null && break; sleep 0.5; done
# runuser forks: the python process is a child of the PID above; it is ended by its own PID too
HOGPY=$(pgrep -n -f 'hf_GPULABsecret0123456789'); [ -n "$HOGPY" ] && STARTED+=("$HOGPY")
grep -q "hog holding" "$WORK/hog.log"
check "hog PID ${HOGPY:-$HOG} holds GPU memory" $?

export CONDA_PREFIX=/opt/conda/envs/zqlab_env
export LD_LIBRARY_PATH="/users/zqdave/cuda/lib64:/scratch/zqlab_home/lib:${LD_LIBRARY_PATH:-}"
export PYTHONPATH=/scratch/zqlab_home/src

# ---- every command, every output format, with --redact ---------------------------------------------
R="$WORK/reports"; mkdir -p "$R"
"${CLI[@]}" snapshot >"$WORK/snap.json" 2>/dev/null
mkdir -p "$WORK/fleet"; cp "$WORK/snap.json" "$WORK/fleet/this.json"; cp examples/snapshots/h200-idle.json "$WORK/fleet/idle.json"
printf 'zqlab@%s:~$ python train.py --master gpu-lab-node-17\n' "$(hostname)" >"$WORK/job.log"; cat test/fixtures/h200/logs/conv-keep1200-bs64.txt >>"$WORK/job.log"
CASES=(
  "snapshot" "check" "check --json" "check --markdown" "check --format prometheus" "check -v --html $R/check.html"
  "procs" "procs --json" "procs --watch 0.5 --count 2" "fix --dry-run" "fix --dry-run --json"
  "libs" "libs --json" "compat torch==2.1.0+cu121" "compat torch==2.1.0+cu121 --json"
  "diff $WORK/snap.json" "diff $WORK/snap.json examples/snapshots/h200-idle.json --markdown --all"
  "fleet $WORK/fleet" "fleet $WORK/fleet --json --html $R/fleet.html"
  "explain $WORK/job.log" "explain $WORK/job.log --json" "explain $WORK/job.log --markdown --html $R/explain.html"
)
n=0
for c in "${CASES[@]}"; do
  n=$((n + 1)); f="$OUT/$(printf '%02d' $n)-$(echo "$c" | cut -d' ' -f1-2 | tr ' /' '__').txt"
  # shellcheck disable=SC2086
  { echo "\$ gpu-env-doctor $c --redact"; timeout 60 "${CLI[@]}" $c --redact 2>&1; echo "(exit $?)"; } >"$f"
  found=$(leaks "$f" "$R"/*.html | tr '\n' ' ')
  [ -z "$found" ] && grep -q . "$f"
  check "$c --redact: nothing of the machine in the output${found:+ (found: $found)}" $?
  for h in "$R"/*.html; do [ -f "$h" ] && mv "$h" "$OUT/$(printf '%02d' $n)-$(basename "$h")"; done
done
# run: the job prints a line naming this host and the user; its own output passes through, the report must not
for fmt in "" "--json" "--markdown" "--html $R/run.html"; do
  n=$((n + 1)); f="$OUT/$(printf '%02d' $n)-run${fmt:+_${fmt%% *}}.txt"
  # shellcheck disable=SC2086
  timeout 90 "${CLI[@]}" run --redact $fmt -- sh -c "cat '$WORK/job.log' >&2; exit 1" 2>"$WORK/run.err" >/dev/null
  grep -v -x -F -f "$WORK/job.log" "$WORK/run.err" >"$f"
  found=$(leaks "$f" "$R"/*.html | tr '\n' ' ')
  [ -z "$found" ] && [ -s "$f" ]
  check "run --redact $fmt: nothing of the machine in the report${found:+ (found: $found)}" $?
  for h in "$R"/*.html; do [ -f "$h" ] && mv "$h" "$OUT/$(printf '%02d' $n)-$(basename "$h")"; done
done

# ---- the same values do reach the output without --redact (so the checks above can fail) --------------
"${CLI[@]}" check --json >"$WORK/plain.json" 2>&1
found=$(leaks "$WORK/plain.json" | wc -l)
[ "$found" -ge 3 ]
check "without --redact, check --json shows $found of the watched values" $?

say "---- $FAILS failed"
exit $((FAILS > 0))
