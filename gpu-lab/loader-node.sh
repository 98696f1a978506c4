#!/usr/bin/env bash
# GPU-machine proof for issue 27 items 1, 2 and 5: the loader as ld.so really does it, and the node layer.
# Run from the repo root on the GPU machine after a build of dist/cli.js (carry .gpu-lab and dist):
#   source .gpu-lab/env.sh && OUT=$OUT bash gpu-lab/loader-node.sh
# About 2-3 minutes. Reads the accelerator's settings, never changes them.
#
# Part A (the loader): four scenarios, each with PyTorch and with JAX from a fresh process doing a
# convolution (so cuDNN loads its sub-libraries), then `libs --json`, `check --json` (and `check --deep --json`
# for preload and truncated) under the same environment:
#   base       nothing changed
#   preload    LD_PRELOAD=<system libcudnn.so.9>
#   etcpreload the same path in /etc/ld.so.preload (the old file is put back by a trap, even on error)
#   truncated  a truncated copy of libcudnn_graph.so.9 in a folder first on LD_LIBRARY_PATH
# For each run: the cuDNN lines of /proc/self/maps (read by the process after the convolution, or from
# LD_DEBUG when it died), the LD_DEBUG=libs log, the exit code and signal.
# Part B (the node): nvidia-smi -q -x and -q, the query fields for persistence, compute mode, MIG, throttle
# reasons and PCIe link, /proc/driver/nvidia/version vs the libnvidia-ml/libcuda files, /dev/nvidia* (opened
# read-write), /dev/shm, kernel log readability and NVRM/Xid lines, container and MPS hints.
# Everything lands in $OUT: summary.txt, loader-node.tgz (all raw records), and a few small files at the top.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
mkdir -p "$OUT"
R="$OUT/raw"; mkdir -p "$R"
summary="$OUT/summary.txt"; : > "$summary"
say() { echo "$*" | tee -a "$summary"; }
CLI="node dist/cli.js"
ulimit -c 0
export XLA_PYTHON_CLIENT_PREALLOCATE=false
SYS_CUDNN=/usr/lib/x86_64-linux-gnu/libcudnn.so.9
SP=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])' 2>/dev/null)
PIP_GRAPH="$SP/nvidia/cudnn/lib/libcudnn_graph.so.9"
say "date $(date -u +%FT%TZ)  host $(uname -r)  user $(id -u)  site-packages $SP"
say "system cuDNN: $(readlink -f $SYS_CUDNN 2>&1)  pip graph: $(readlink -f "$PIP_GRAPH" 2>&1)"
say "LD_LIBRARY_PATH at start: ${LD_LIBRARY_PATH:-<unset>}"

TMP=$(mktemp -d /tmp/ged-loader-node.XXXXXX)
PRELOAD_BACKUP="$TMP/ld.so.preload.orig"
had_preload=0
[ -e /etc/ld.so.preload ] && { cp -a /etc/ld.so.preload "$PRELOAD_BACKUP"; had_preload=1; }
restore_preload() {
  if [ "$had_preload" = 1 ]; then cp -a "$PRELOAD_BACKUP" /etc/ld.so.preload; else rm -f /etc/ld.so.preload; fi
}
trap 'restore_preload; rm -rf "$TMP"' EXIT
[ "$had_preload" = 1 ] && say "note: /etc/ld.so.preload existed before: $(cat /etc/ld.so.preload)"

# The jobs: a convolution each, then the cuDNN files this process has mapped.
cat > "$TMP/torch_job.py" <<'PY'
import sys, torch
x = torch.randn(2, 3, 32, 32, device="cuda"); w = torch.randn(8, 3, 3, 3, device="cuda")
y = torch.nn.functional.conv2d(x, w); torch.cuda.synchronize()
print("cudnn.version()", torch.backends.cudnn.version(), "conv ok", tuple(y.shape))
with open("/proc/self/maps") as f, open(sys.argv[1], "w") as o:
    seen = set()
    for l in f:
        p = l.split()[-1] if len(l.split()) >= 6 else ""
        if "libcudnn" in p and p not in seen: seen.add(p); o.write(p + "\n")
PY
cat > "$TMP/jax_job.py" <<'PY'
import sys, jax, jax.numpy as jnp
x = jnp.ones((2, 3, 32, 32)); w = jnp.ones((8, 3, 3, 3))
y = jax.lax.conv_general_dilated(x, w, (1, 1), "VALID"); y.block_until_ready()
print("backend", jax.default_backend(), "conv ok", y.shape)
with open("/proc/self/maps") as f, open(sys.argv[1], "w") as o:
    seen = set()
    for l in f:
        p = l.split()[-1] if len(l.split()) >= 6 else ""
        if "libcudnn" in p and p not in seen: seen.add(p); o.write(p + "\n")
PY

# run_fw SCEN FW: the framework job from a fresh process with LD_DEBUG=libs, under the scenario's env (already exported)
run_fw() {
  local scen=$1 fw=$2 d="$R/$1"
  mkdir -p "$d"
  local t0; t0=$(date +%s)
  LD_DEBUG=libs LD_DEBUG_OUTPUT="$d/lddebug-$fw" timeout 150 python3 "$TMP/${fw}_job.py" "$d/maps-$fw.txt" \
    > "$d/$fw.out" 2> "$d/$fw.err"
  local rc=$? sig=""
  [ "$rc" -gt 128 ] && [ "$rc" -ne 124 ] && sig=" signal $(kill -l $((rc-128)) 2>/dev/null)"
  echo "$rc" > "$d/$fw.rc"
  # one LD_DEBUG file per process (LD_DEBUG_OUTPUT appends .PID); the job's own is the largest
  local main; main=$(ls -S "$d"/lddebug-$fw.* 2>/dev/null | head -1)
  [ -n "$main" ] && grep -E 'calling init: .*libcudnn|file=.*libcudnn.*(generating link map|needed by|dynamically loaded by)|trying file=.*libcudnn|cannot|error' "$main" \
    | sed -E 's/^ *[0-9]+: *//' | sort -u > "$d/lddebug-$fw-cudnn.txt"
  [ -n "$main" ] && grep -oE 'calling init: \S*libcudnn\S*' "$main" | awk '{print $3}' | sort -u > "$d/init-$fw.txt"
  local maps="(process died: no maps)"
  [ -s "$d/maps-$fw.txt" ] && maps=$(xargs -n1 readlink -f < "$d/maps-$fw.txt" | sed "s#$SP/##" | tr '\n' ' ')
  say "  $fw: exit $rc$sig in $(( $(date +%s)-t0 ))s; $(tail -1 "$d/$fw.out" 2>/dev/null | cut -c1-80)"
  say "     mapped cuDNN: $maps"
  [ -s "$d/init-$fw.txt" ] && say "     ld.so init'ed cuDNN: $(xargs -n1 readlink -f < "$d/init-$fw.txt" 2>/dev/null | sed "s#$SP/##" | tr '\n' ' ')"
  [ "$rc" != 0 ] && tail -3 "$d/$fw.err" | sed 's/^/     err: /' | tee -a "$summary" >/dev/null
}

# run_cli SCEN DEEP: libs and check (and check --deep) under the scenario's env
run_cli() {
  local scen=$1 deep=$2 d="$R/$1"
  mkdir -p "$d"
  timeout 60 $CLI libs --json > "$d/libs.json" 2> "$d/libs.err"; echo "libs --json exit $?" > "$d/cli.rc"
  timeout 60 $CLI libs > "$d/libs.txt" 2>&1
  timeout 90 $CLI check --json > "$d/check.json" 2> "$d/check.err"; echo "check --json exit $?" >> "$d/cli.rc"
  timeout 90 $CLI check > "$d/check.txt" 2>&1
  if [ "$deep" = 1 ]; then
    timeout 120 $CLI check --deep --json > "$d/check-deep.json" 2> "$d/check-deep.err"; echo "check --deep --json exit $?" >> "$d/cli.rc"
  fi
  say "  cli: $(tr '\n' ';' < "$d/cli.rc")"
  python3 - "$d" "$SP" >> "$summary" 2>&1 <<'PY'
import json, sys, os
d, sp = sys.argv[1], sys.argv[2]
def load(n):
    try: return json.load(open(os.path.join(d, n)))
    except Exception as e: return None
libs = load("libs.json")
if libs:
    sec = libs.get("libraries", libs)
    for c in sec.get("consumers", []):
        if c.get("framework") not in ("torch", "jax"): continue
        rs = [r for r in c["resolved"] if (r.get("family") or "").startswith("libcudnn")]
        print(f"     libs says {c['framework']}: " + "; ".join(f"{r['name']}={r.get('version')} via {r['via']}{' ERR '+r['error'] if r.get('error') else ''} ({(r.get('realPath') or '-').replace(sp+'/','')})" for r in rs[:4]))
for n in ("check.json", "check-deep.json"):
    j = load(n)
    if not j: continue
    fs = j.get("findings") or j.get("results") or []
    out = []
    for f in fs:
        sev = f.get("severity")
        if f.get("status") == "skip": continue
        if sev in ("error", "warning") or "cudnn" in (f.get("message") or "").lower():
            out.append(f"[{sev}] {f.get('check')}: {(f.get('message') or '')[:160]}")
    print(f"     {n}: " + (" | ".join(out[:8]) if out else "no errors/warnings"))
PY
}

scenario() { say "== A.$1: $2"; }

scenario base "nothing changed"
run_fw base torch; run_fw base jax; run_cli base 0

scenario preload "LD_PRELOAD=$SYS_CUDNN"
( export LD_PRELOAD=$SYS_CUDNN; run_fw preload torch; run_fw preload jax; run_cli preload 1 )
# a running torch process started with the preload, read by `libs --pid` from a shell without it
( export LD_PRELOAD=$SYS_CUDNN
  python3 -c "exec(open('$TMP/torch_job.py').read()); print('ready', flush=True); import time; time.sleep(60)" "$R/preload/maps-torch-pid.txt" > "$TMP/pid.log" 2>&1 &
  echo $! > "$TMP/pid" )
PID=$(cat "$TMP/pid")
for i in $(seq 120); do grep -q ready "$TMP/pid.log" 2>/dev/null && break; sleep 0.5; done
timeout 60 $CLI libs --json --pid "$PID" > "$R/preload/libs-pid.json" 2>&1
python3 - "$R/preload/libs-pid.json" "$PID" >> "$summary" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); pid = int(sys.argv[2])
p = [x for x in j.get("processes", []) if x["pid"] == pid]
cud = sorted({l["path"].split("/")[-1] + " " + str(l["version"]) for l in j.get("loaded", []) if l["pid"] == pid and "cudnn" in l["path"]})
print(f"  libs --pid {pid} (torch started with LD_PRELOAD): {p[0]['differences'] if p else 'not found'}; mapped cuDNN: {', '.join(cud)}")
PY
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null

scenario etcpreload "/etc/ld.so.preload = $SYS_CUDNN"
{ [ "$had_preload" = 1 ] && cat "$PRELOAD_BACKUP"; echo "$SYS_CUDNN"; } > /etc/ld.so.preload
( run_fw etcpreload torch; run_fw etcpreload jax; run_cli etcpreload 0 )
restore_preload
say "  /etc/ld.so.preload restored: $( [ -e /etc/ld.so.preload ] && cat /etc/ld.so.preload || echo '<absent, as before>')"

scenario truncated "a truncated libcudnn_graph.so.9 (first 1 MiB of pip's) first on LD_LIBRARY_PATH"
mkdir -p "$TMP/shadow"
head -c 1048576 "$(readlink -f "$PIP_GRAPH")" > "$TMP/shadow/libcudnn_graph.so.9"
say "  shadow: $TMP/shadow/libcudnn_graph.so.9 ($(stat -c %s "$TMP/shadow/libcudnn_graph.so.9") of $(stat -L -c %s "$PIP_GRAPH") bytes)"
( export LD_LIBRARY_PATH="$TMP/shadow${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; run_fw truncated torch; run_fw truncated jax; run_cli truncated 1 )

say "== B. node facts"
N="$R/node"; mkdir -p "$N"
nvidia-smi -q -x > "$N/nvidia-smi-q.xml" 2>&1; say "  nvidia-smi -q -x exit $?"
nvidia-smi -q > "$N/nvidia-smi-q.txt" 2>&1
nvidia-smi -q -d PERFORMANCE,CLOCK,COMPUTE > "$N/nvidia-smi-q-perf.txt" 2>&1
nvidia-smi > "$N/nvidia-smi.txt" 2>&1
: > "$N/query.txt"
for f in index uuid driver_version persistence_mode compute_mode mig.mode.current mig.mode.pending \
  clocks_throttle_reasons.active clocks_event_reasons.active clocks_throttle_reasons.hw_slowdown \
  clocks_throttle_reasons.sw_thermal_slowdown clocks_throttle_reasons.sw_power_cap \
  pcie.link.gen.current pcie.link.gen.max pcie.link.gen.gpucurrent pcie.link.gen.gpumax pcie.link.gen.hostmax \
  pcie.link.width.current pcie.link.width.max; do
  echo "$f = $(nvidia-smi --query-gpu=$f --format=csv,noheader 2>&1 | tr '\n' ' ')" >> "$N/query.txt"
done
sed 's/^/  /' "$N/query.txt" | tee -a "$summary"
nvidia-smi mig -lgi > "$N/mig-lgi.txt" 2>&1; echo "exit $?" >> "$N/mig-lgi.txt"
{ cat /proc/driver/nvidia/version; echo "--- gpus"; for g in /proc/driver/nvidia/gpus/*; do echo "$g"; cat "$g/information"; done; } > "$N/proc-driver.txt" 2>&1
say "  kernel module: $(head -1 /proc/driver/nvidia/version 2>&1)"
{
  echo "--- ldconfig -p (nvidia-ml, cuda)"; ldconfig -p | grep -E 'libnvidia-ml|libcuda\.so'
  echo "--- files"; for f in $(ldconfig -p | grep -E 'libnvidia-ml|libcuda\.so' | awk '{print $NF}' | sort -u) /usr/local/cuda-13.0/compat/libcuda.so*; do
    [ -e "$f" ] && echo "$f -> $(readlink -f "$f")"; done
} > "$N/driver-libs.txt" 2>&1
say "  libs: $(grep -E '^/.*-> ' "$N/driver-libs.txt" | awk '{print $3}' | sort -u | xargs -r -n1 basename | tr '\n' ' ')"
ls -l /dev/nvidia* /dev/nvidia-caps 2>&1 > "$N/dev-nvidia.txt"
python3 - >> "$N/dev-nvidia.txt" 2>&1 <<'PY'
import os, glob, stat
print("--- open O_RDWR")
for p in sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/nvidia-caps/*")):
    try:
        if not stat.S_ISCHR(os.stat(p).st_mode): continue
        fd = os.open(p, os.O_RDWR); os.close(fd); print(p, "ok")
    except OSError as e: print(p, "error", e.errno, e.strerror)
PY
say "  /dev/nvidia*: $(grep -c ' ok$' "$N/dev-nvidia.txt") openable, $(grep -c ' error ' "$N/dev-nvidia.txt") not"
{ df -B1 /dev/shm; echo "--- mounts"; grep -E ' /dev/shm ' /proc/mounts; echo "--- nproc $(nproc)"; } > "$N/shm.txt" 2>&1
say "  /dev/shm: $(df -h /dev/shm | tail -1)"
{
  echo "--- dmesg_restrict=$(cat /proc/sys/kernel/dmesg_restrict 2>&1) kptr=$(cat /proc/sys/kernel/kptr_restrict 2>&1)"
  ls -l /dev/kmsg 2>&1
  grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status
  echo "--- dmesg"; dmesg > "$N/dmesg-full.txt" 2> "$N/dmesg.err"; echo "dmesg exit $? ($(wc -l < "$N/dmesg-full.txt") lines): $(head -c 300 "$N/dmesg.err")"
  echo "--- dmesg NVRM/Xid"; grep -E 'NVRM|Xid|nvidia' "$N/dmesg-full.txt" | tail -60
  echo "--- /dev/kmsg read"; timeout 2 head -c 2000 /dev/kmsg > /dev/null 2> "$N/kmsg.err"; echo "exit $? $(cat "$N/kmsg.err")"
  echo "--- journalctl -k"; timeout 10 journalctl -k -n 5 --no-pager 2>&1 | tail -5
} > "$N/kernel-log.txt" 2>&1
say "  kernel log: $(grep -E '^dmesg exit' "$N/kernel-log.txt")"
say "  NVRM/Xid lines: $(grep -cE 'NVRM|Xid' "$N/dmesg-full.txt" 2>/dev/null)"
rm -f "$N/dmesg-full.txt"  # raw kernel log stays here; only the NVRM/Xid lines travel
{
  echo "--- container: dockerenv=$([ -e /.dockerenv ] && echo yes || echo no) containerenv=$([ -e /run/.containerenv ] && echo yes || echo no)"
  cat /proc/1/cgroup; echo "--- pid1 $(cat /proc/1/comm)"
  echo "--- nvidia mounts"; grep -E 'nvidia' /proc/self/mountinfo | head -40
  echo "--- MPS: CUDA_MPS_PIPE_DIRECTORY=${CUDA_MPS_PIPE_DIRECTORY:-} ; ls /tmp/nvidia-mps:"; ls -la /tmp/nvidia-mps 2>&1
  echo "--- mps processes"; pgrep -a nvidia-cuda-mps 2>&1
  echo "--- uptime/suspend"; cat /proc/uptime; cat /sys/power/state 2>&1; lsmod 2>/dev/null | grep -E '^nvidia' || grep -E '^nvidia' /proc/modules
} > "$N/context.txt" 2>&1
say "  container: $(head -1 "$N/context.txt")"
timeout 90 $CLI check --json > "$N/check.json" 2> "$N/check.err"; say "  check --json (node checks) exit $?"
timeout 90 $CLI check > "$N/check.txt" 2>&1

tar czf "$OUT/loader-node.tgz" -C "$R" . && rm -rf "$R"
say "== done: $OUT/loader-node.tgz ($(du -h "$OUT/loader-node.tgz" | cut -f1)), /etc/ld.so.preload: $( [ -e /etc/ld.so.preload ] && echo present || echo absent)"
