#!/usr/bin/env bash
# GPU-machine proof for issue 27's node layer: what the driver, the kernel and the machine say, next to what
# `check`, `check --deep` and `run` say about it, judged row by row by code (the Python at the end).
# Run from the repo root on the GPU machine after a build of dist/cli.js (carry .gpu-lab and dist):
#   source .gpu-lab/env.sh && OUT=$OUT bash gpu-lab/node-truth.sh
# About a minute. Reads the accelerator's settings, never changes them (no -pm, -c, -mig, no module reload).
#
# Rows (each: the raw fact, the tool's verdict, agree/DISAGREE):
#   persistence    nvidia-smi persistence_mode            vs node.persistence (a note iff Disabled)
#   compute-mode   nvidia-smi compute_mode                vs node.compute-mode (a finding iff not Default)
#   shm            df -B1 /dev/shm                        vs node.shm (a warning iff < 1 GiB)
#   kernel-log     dmesg's exit status                    vs snapshot.kernelLog.readable (and "unknown: needs")
#   clocks         clocks_event_reasons.active bitmask    vs node.clocks (a warning iff a slowing bit is set)
#   pcie           pcie.link.{gen,width}.{current,max}    vs node.pcie-link (width below max, or gen while busy)
#   device-nodes   /dev/nvidia<minor_number> per GPU      vs node.device-nodes (an error iff one is missing)
#   mig            mig.mode.current                       vs node.mig (applies iff Enabled)
#   cuda-init      check --deep's cudaGetDeviceCount      vs node.cuda-init (an error iff 999 while NVML works)
#   run-window     /proc/uptime around a failing job      vs kernelLog.jobWindow and node.kernel-log's window
#                  and the Xid lines dmesg has inside it     verdict ("no Xid while the job ran", the Xids, or
#                                                            "unknown: needs …")
# Everything lands in $OUT: summary.txt (one judged line per row), node-truth.tgz (every raw record).
set -u
OUT="${OUT:?set OUT to the evidence folder}"
mkdir -p "$OUT"
R="$OUT/raw"; mkdir -p "$R"
CLI="node dist/cli.js"
ulimit -c 0
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
: > "$OUT/summary.txt"
say "date $(date -u +%FT%TZ)  kernel $(uname -r)  uid $(id -u)  $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"

# --- raw facts, as the driver and the kernel give them
nvidia-smi -q -x > "$R/nvidia-smi-q.xml" 2> "$R/nvidia-smi-q.err"
nvidia-smi -L > "$R/nvidia-smi-L.txt" 2>&1
nvidia-smi --query-gpu=index,persistence_mode,compute_mode,mig.mode.current,clocks_event_reasons.active,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max \
  --format=csv,noheader,nounits > "$R/query.csv" 2> "$R/query.err"
grep -o '<minor_number>[0-9]*</minor_number>' "$R/nvidia-smi-q.xml" | tr -dc '0-9\n' > "$R/minor-numbers.txt"
ls -l /dev/nvidia* > "$R/dev-nvidia.txt" 2>&1
df -B1 --output=size /dev/shm 2>/dev/null | tail -1 | tr -d ' ' > "$R/shm-bytes.txt"
grep ' /dev/shm ' /proc/mounts | tail -1 > "$R/shm-mount.txt" 2>&1
dmesg > "$R/dmesg.txt" 2> "$R/dmesg.err"; echo $? > "$R/dmesg.rc"
cat /proc/sys/kernel/dmesg_restrict > "$R/dmesg_restrict.txt" 2>&1
grep -E 'NVRM: Xid' "$R/dmesg.txt" > "$R/xid-lines.txt" 2>/dev/null || true
pgrep -a -f 'nvidia-cuda-mps' > "$R/mps.txt" 2>&1 || echo "no MPS process" > "$R/mps.txt"

# --- the tool
$CLI check --json > "$R/check.json" 2> "$R/check.err"; echo $? > "$R/check.rc"
$CLI check --deep --json > "$R/check-deep.json" 2> "$R/check-deep.err"; echo $? > "$R/check-deep.rc"

# --- run over a job that makes a CUDA context, then fails; the time since boot read before and after it
JOB="$R/job.py"
cat > "$JOB" <<'PY'
import sys, torch
x = torch.ones(1024, 1024, device="cuda"); torch.cuda.synchronize()
print("cuda ok", float(x.sum()))
sys.exit(3)
PY
cut -d' ' -f1 /proc/uptime > "$R/run-uptime-before.txt"
$CLI run --report "$R/run.json" -- python3 "$JOB" > "$R/run.out" 2> "$R/run.err"; echo $? > "$R/run.rc"
cut -d' ' -f1 /proc/uptime > "$R/run-uptime-after.txt"
dmesg > "$R/dmesg-after-run.txt" 2>/dev/null || true

# --- judge, by code
python3 - "$R" <<'PY' | tee -a "$OUT/summary.txt"
import json, os, re, sys
R = sys.argv[1]
rd = lambda f: open(os.path.join(R, f), encoding="utf-8", errors="replace").read()
def js(f):
    try: return json.loads(rd(f))
    except Exception as e: return {"_error": str(e), "findings": [], "snapshot": {}}
check, deep, run = js("check.json"), js("check-deep.json"), js("run.json")
# the findings that say something is wrong or unknown ("ok" lines and skipped checks are not a verdict against)
def of(doc, cid): return [f for f in doc.get("findings", []) if f.get("check") == cid and f.get("status") in ("warn", "fail", "unknown", "crash")]
def ran(doc, cid): return [f for f in doc.get("findings", []) if f.get("check") == cid and f.get("status") != "skip"]
rows = []
def row(name, raw, tool, agree): rows.append((name, agree)); print(f"{'agree   ' if agree else 'DISAGREE'} {name:13} raw: {raw} | tool: {tool}")
q = [l.split(", ") for l in rd("query.csv").strip().splitlines() if l.strip()]
g = q[0] if q else [""] * 9
msgs = lambda fs: "; ".join(f["severity"] + " " + f["message"][:110] for f in fs) or "no finding"
# persistence
f = of(check, "node.persistence"); row("persistence", g[1], msgs(f), (g[1] == "Disabled") == bool(f))
# compute mode
f = of(check, "node.compute-mode"); row("compute-mode", g[2], msgs(f), (g[2] != "Default") == bool(f))
# /dev/shm
try: shm = int(rd("shm-bytes.txt").strip())
except ValueError: shm = None
f = of(check, "node.shm"); row("shm", f"{shm} bytes ({rd('shm-mount.txt').strip()[:60]})", msgs(f), shm is not None and (shm < 1024**3) == bool(f))
# kernel log readability
rc = rd("dmesg.rc").strip(); kl = check.get("snapshot", {}).get("kernelLog")
fk = of(check, "node.kernel-log")
readable_raw = rc == "0"
tool_readable = kl.get("readable") if kl else None
ok = tool_readable == readable_raw and (readable_raw or any("unknown" in x["message"] for x in fk))
row("kernel-log", f"dmesg exit {rc}, dmesg_restrict {rd('dmesg_restrict.txt').strip()}, {len(rd('xid-lines.txt').splitlines())} Xid lines",
    f"readable={tool_readable}; {msgs(fk)}", ok)
# clocks: slowing bits of the event reasons mask (sw_power_cap 0x4, hw_slowdown 0x8, sw_thermal 0x20, hw_thermal 0x40, power brake 0x80)
try: mask = int(g[4], 16)
except ValueError: mask = None
f = of(check, "node.clocks")
row("clocks", f"clocks_event_reasons.active {g[4]}", msgs(f), mask is not None and bool(mask & 0xEC) == bool(f))
# PCIe link: width below max always counts; gen below max only when not idle (0x1)
try: gc, gm, wc, wm = (int(x) for x in g[5:9])
except ValueError: gc = gm = wc = wm = None
f = of(check, "node.pcie-link")
slow = gc is not None and (wc < wm or (gc < gm and not (mask or 0) & 1))
row("pcie", f"gen {g[5]}/{g[6]} width x{g[7]}/x{g[8]}", msgs(f), gc is not None and slow == bool(f))
# device nodes: /dev/nvidia<minor> for each GPU, by name (the tool never opens them)
minors = [m for m in rd("minor-numbers.txt").split() if m]
nodes = set(re.findall(r"/dev/(nvidia\d+)\b", rd("dev-nvidia.txt")))
lacking = [m for m in minors if f"nvidia{m}" not in nodes]
f = of(check, "node.device-nodes")
row("device-nodes", f"{len(minors)} GPUs, minors {minors}, nodes {sorted(nodes)}, lacking {lacking}", msgs(f), bool(lacking) == bool(f))
# MIG
f = ran(check, "node.mig"); mig_on = g[3].strip() == "Enabled"
row("mig", f"mig.mode.current {g[3]}", msgs(f), mig_on == bool(f))
# CUDA init under --deep
runs = deep.get("snapshot", {}).get("smoke", {}).get("runs", [])
codes = [((r.get("devices") or {}).get("error") or {}).get("code", 0) for r in runs]
f = of(deep, "node.cuda-init")
row("cuda-init", f"smoke runs {len(runs)}, cudaGetDeviceCount codes {codes}", msgs(f), bool(runs) and ((999 in codes) == bool(f)))
# run's window: inside the uptime read before and after, and the Xid lines in it as dmesg has them
b, a = float(rd("run-uptime-before.txt")), float(rd("run-uptime-after.txt"))
rk = run.get("snapshot", {}).get("kernelLog") or {}
w = rk.get("jobWindow")
fr = ran(run, "node.kernel-log")
if not rk:
    row("run-window", f"job between {b} and {a} s after boot; run exit {rd('run.rc').strip()}", "no kernelLog in run's snapshot", False)
elif not rk.get("readable"):
    row("run-window", f"dmesg unreadable (exit {rc})", msgs(fr), any("during the job: unknown" in x["message"] for x in fr))
else:
    inside = []
    for l in rd("dmesg-after-run.txt").splitlines():
        m = re.match(r"^\[\s*(\d+\.\d+)\].*NVRM: Xid", l)
        if m and w and w["fromSeconds"] - 1 <= float(m.group(1)) <= w["toSeconds"] + 1: inside.append(l)
    win_ok = bool(w) and b - 0.5 <= w["fromSeconds"] <= w["toSeconds"] <= a + 0.5
    said = " ".join(x["message"] for x in fr)
    verdict_ok = ("The job ran while" in said) if inside else ("No Xid in the kernel log while the job ran" in said)
    row("run-window", f"job between {b} and {a} s after boot, Xid inside: {len(inside)}; run exit {rd('run.rc').strip()}",
        f"window {w}; {msgs(fr)}", win_ok and verdict_ok)
print(f"== {sum(1 for _, ok in rows if ok)} of {len(rows)} rows agree")
PY
tar -czf "$OUT/node-truth.tgz" -C "$OUT" raw && rm -rf "$R"
say "== done: $OUT/summary.txt, $OUT/node-truth.tgz"
