#!/usr/bin/env bash
# Dry run of gpu-lab/never-harm.sh on a machine without a GPU (as root): a private mount namespace whose /dev
# has an empty regular file nvidia0 (as test/helpers/gpu-namespace.ts makes it), a fake torch whose "GPU
# memory" is an open /dev/nvidia0 and a fake nvidia-smi listing those processes. Checks the script's plumbing
# and the verdicts; the GPU run is the proof. Output in ${OUT:-/tmp/never-harm-dry}.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
DRY="$REPO/gpu-lab/never-harm-dry"
export REPO OUT=${OUT:-/tmp/never-harm-dry}
rm -rf "$OUT"
exec unshare -m bash -c '
set -e
T=$(mktemp -d /tmp/never-harm-dev.XXXXXX); mkdir -p "$T/realdev"
mount --bind /dev "$T/realdev"
mount -t tmpfs -o mode=755 never-harm-dev /dev
for e in "$T"/realdev/* "$T"/realdev/.[!.]*; do [ -e "$e" ] || [ -L "$e" ] || continue; ln -s "$e" "/dev/${e##*/}"; done
: > /dev/nvidia0; chmod 666 /dev/nvidia0
cd "$REPO"
PATH="'"$DRY"'/bin:$PATH" PYTHONPATH="'"$DRY"'" timeout 240 bash gpu-lab/never-harm.sh
'
