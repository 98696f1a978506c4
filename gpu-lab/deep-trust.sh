#!/usr/bin/env bash
# GPU-machine proof for issue 23 item 2 (H1 of security-audit-2026-12-03): `check --deep` runs only what the
# caller runs or named. Run from the repo root on the H200 after `source .gpu-lab/env.sh` and a build:
#   OUT=/some/dir bash gpu-lab/deep-trust.sh
# 1. check --deep as the lab runs it (/opt/torch/.venv on PATH): the smoke test still runs the venv's files on
#    the real GPU (smoke.runs non-empty, a convolution ok) — the rule did not lose the user's own environment.
# 2. a conda environment of another user (uid 1002) under /opt/conda/envs (sticky, world-writable), whose
#    bin/python is a script recording that it ran and whose site-packages link to the venv's torch and nvidia
#    folders (so the loader emulation finds cuDNN there): check --deep and check --deep --all-envs start none of
#    it ($OUT/PWNED stays absent), --all-envs says so on stderr before running anything, and smoke.notRun says why;
#    --python naming it does run it (PWNED appears: the caller chose it).
# Removes /opt/conda/envs/bobenv on exit (and /opt/conda when it made it). About 30 s.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
mkdir -p "$OUT"
CLI="node dist/cli.js"
VENV=/opt/torch/.venv
SP=$(ls -d $VENV/lib/python3*/site-packages | head -1)
S="$OUT/deep-trust.txt"; : > "$S"
say() { echo "$*" | tee -a "$S"; }
MADE_CONDA=0; [ -e /opt/conda ] || MADE_CONDA=1
E=/opt/conda/envs/bobenv
cleanup() { rm -rf "$E"; [ "$MADE_CONDA" = 1 ] && rm -rf /opt/conda; true; }
trap cleanup EXIT INT TERM

summary() { # file: the smoke runs and notRun, one line each
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const s = o.snapshot.smoke || {};
    for (const r of s.runs || []) console.log(`  ran ${r.interpreter}: exit ${r.exit}, conv ok on ${r.gpus.filter((g) => g.conv.some((c) => c.ok)).length}/${r.gpus.length} GPU(s); cudnn ${r.files.find((f) => f.role === "libcudnn")?.path}`);
    for (const n of s.notRun || []) console.log(`  not run ${n.environment}: ${n.reason}`);
    if (s.skipped) console.log(`  skipped: ${s.skipped}`);' "$1"
}

say "== 1. check --deep, the lab's own environment"
$CLI check --deep --json > "$OUT/deep-own.json" 2> "$OUT/deep-own.err"; say "exit $?"; summary "$OUT/deep-own.json" | tee -a "$S"

say "== 2. another user's conda environment under /opt/conda/envs"
mkdir -p /opt/conda/envs "$E/conda-meta" "$E/bin" "$E/lib/python3.12/site-packages"; chmod 1777 /opt/conda/envs
printf '#!/bin/sh\necho "bob-python ran as uid $(id -u) args: $1 $2" >> %s/PWNED\nexec %s/bin/python3 "$@"\n' "$OUT" "$VENV" > "$E/bin/python"
chmod 755 "$E/bin/python"; ln -s python "$E/bin/python3"
for d in torch nvidia "$(basename "$(ls -d $SP/torch-*.dist-info | head -1)")"; do ln -s "$SP/$d" "$E/lib/python3.12/site-packages/$d"; done
chown -hR 1002:1002 "$E"
rm -f "$OUT/PWNED"
(cd /tmp && env -u VIRTUAL_ENV -u CONDA_PREFIX $OLDPWD/dist/cli.js check --deep --json > "$OUT/deep-bob.json" 2> "$OUT/deep-bob.err"); say "check --deep: exit $?; PWNED: $([ -e "$OUT/PWNED" ] && cat "$OUT/PWNED" || echo absent)"
summary "$OUT/deep-bob.json" | tee -a "$S"
(cd /tmp && env -u VIRTUAL_ENV -u CONDA_PREFIX $OLDPWD/dist/cli.js check --deep --all-envs --json > "$OUT/deep-bob-all.json" 2> "$OUT/deep-bob-all.err"); say "check --deep --all-envs: exit $?; PWNED: $([ -e "$OUT/PWNED" ] && cat "$OUT/PWNED" || echo absent)"
say "  stderr: $(head -c 600 "$OUT/deep-bob-all.err")"
summary "$OUT/deep-bob-all.json" | tee -a "$S"
$CLI check --deep --python "$E" --json > "$OUT/deep-bob-named.json" 2> "$OUT/deep-bob-named.err"; say "check --deep --python $E: exit $?; PWNED: $([ -e "$OUT/PWNED" ] && cat "$OUT/PWNED" || echo absent)"
summary "$OUT/deep-bob-named.json" | tee -a "$S"
