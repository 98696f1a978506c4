#!/usr/bin/env bash
# Before/after captures of issue 26's remaining items at 80 columns, English and Chinese.
# usage: docs/evidence/answer/capture.sh BEFORE_CLI AFTER_CLI   (each a built dist/cli.js)
set -u
out=$(dirname "$0")
H=examples/snapshots/h200-memory-held.json
O=examples/snapshots/h200-orphan-held.json
OOM=test/fixtures/h200/logs/conv-keep1200-bs64.txt
run() { # name, args...
  local name=$1; shift
  for side in before after; do
    local cli=$BEFORE; [ "$side" = after ] && cli=$AFTER
    COLUMNS=80 NO_COLOR=1 node "$cli" "$@" >"$out/$name.$side.txt" 2>&1
    # the age of a snapshot moves with the clock: not a difference
    sed -i -E 's/\(([0-9]+[a-z]? ?[0-9]*[a-z]* ago|[0-9]+ 小时 [0-9]+ 分钟前|[0-9]+h [0-9]+m ago)\)/(AGE)/g; s/（[0-9]+ ?[^）]*前）/（AGE）/g; s/[0-9]+h [0-9]+m/AGE/g' "$out/$name.$side.txt"
  done
}
BEFORE=$1 AFTER=$2
run check-held check --from $H
run check-held-zh check --from $H --lang zh
run check-orphan check --from $O
run procs-held procs --from $H
run procs-held-zh procs --from $H --lang zh
run explain-oom-held explain $OOM --from $H
run explain-oom-orphan explain $OOM --from $O
run fix-orphan fix --from $O
run fix-orphan-zh fix --from $O --lang zh
run fleet fleet examples/snapshots
run check-help-zh check --help --lang zh
