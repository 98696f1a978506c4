#!/usr/bin/env bash
# Issue 29: how check --deep gets its libraries on the GPU machine (the kept answer, the scan's worker, or the main
# thread) and what it saw of GPU processes at its start, after a plain check and after collect_env (as
# bench/speed.mjs interleaves them): 3 rounds each, wall ms, the libraries/fatbin probes, the processes section.
#   there (carry .gpu-lab and dist): source .gpu-lab/env.sh && OUT=${OUT:-/tmp/out} bash gpu-lab/deep-probe.sh
# About 30 s.
set -u
OUT=${OUT:-/tmp/ged-out}; mkdir -p "$OUT"
PY=${PY:-/opt/torch/.venv/bin/python3}
S="$OUT/deep-probe.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
show() {
  node -e '
    const o = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const p = o.snapshot.probes.filter((x) => /libr|fatbin|smoke/.test(x.id)).map((x) => `${x.id} ${x.durationMs}${x.message ? ` (${x.message.slice(0, 60)})` : ""}`);
    const procs = (o.snapshot.processes.list ?? []).map((x) => `${x.pid}:${x.name ?? x.command ?? "?"}`);
    console.log(`  ${p.join("; ")} | GPU processes at the end: ${procs.join(" ") || "none"}`);'
}
node dist/cli.js check --json > /dev/null 2>&1
for what in after-check after-collect_env; do
  for i in 1 2 3; do
    [ "$what" = after-collect_env ] && "$PY" -m torch.utils.collect_env > /dev/null 2>&1
    s=$(date +%s%N)
    node dist/cli.js check --deep --json --python "$PY" > "$OUT/deep-$what-$i.json" 2> "$OUT/deep-$what-$i.err"
    rc=$?
    e=$(date +%s%N)
    say "$what $i: $(( (e - s) / 1000000 )) ms, exit $rc"
    show < "$OUT/deep-$what-$i.json" | tee -a "$S"
  done
done
