#!/usr/bin/env bash
# Issue 19 proof on the H200: (1) a real CUDA failure logged with Chinese environment lines in the encodings a
# Chinese Windows console writes (GBK, as cmd in code page 936 redirects Python; UTF-16 as PowerShell 5 does;
# UTF-8): explain must read the same facts and give the same diagnosis from each; (2) the live machine is Linux:
# no fix of `check` may carry Windows syntax; (3) compat for PaddlePaddle specs judged against the live machine.
#   source .gpu-lab/env.sh && node scripts/build.mjs && OUT=/tmp/out bash gpu-lab/zh.sh
# Writes to $OUT: zh-logs/ (the three raw logs), explain-*.json, check.json, compat-*.txt, summary.txt.
# Starts one Python process at a time in the foreground (it ends by itself: the allocation fails); no holders.
set -u
OUT="${OUT:?set OUT to the evidence folder}"
CLI="node dist/cli.js"
mkdir -p "$OUT/zh-logs"
summary="$OUT/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

# 1. a real OOM from torch on the H200, preceded by the machine's facts in Chinese phrasing
FAIL='
import subprocess, torch
props = torch.cuda.get_device_properties(0)
drv = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
print("环境信息：")
print(f"显卡：{props.name}，显存：{props.total_memory // 2**30}G，CUDA {torch.version.cuda}，cuDNN {torch.backends.cudnn.version()}")
print(f"驱动版本 {drv}")
print("系统：Ubuntu 24.04")
print(f"PyTorch 版本：{torch.__version__}")
print("开始训练……", flush=True)
x = torch.empty(props.total_memory * 2, dtype=torch.uint8, device="cuda")
'
for enc in gbk utf-16 utf-8; do
  PYTHONIOENCODING=$enc timeout 120 python3 -c "$FAIL" > "$OUT/zh-logs/oom-$enc.log" 2>&1
  echo "python exit: $?" | tee -a "$OUT/zh-logs/exit-codes.txt" > /dev/null
  $CLI explain "$OUT/zh-logs/oom-$enc.log" --no-machine --json > "$OUT/explain-$enc.json" 2> "$OUT/explain-$enc.stderr"
  python3 - "$OUT/explain-$enc.json" "$enc" <<'PY' | tee -a "$summary"
import json, sys
d = json.load(open(sys.argv[1])); e = d["environment"]
v = lambda k: (e.get(k) or {}).get("value")
gpu = (e.get("gpus") or [{}])[0]
print(f"{sys.argv[2]:7} top={d['causes'][0]['id'] if d['causes'] else None} gpu={gpu.get('name')} MiB={gpu.get('totalMiB')} "
      f"cuda={v('cuda')} cudnn={v('cudnn')} driver={v('driver')} os={v('os')} fw={v('framework')} {v('frameworkVersion')}")
PY
done
python3 - "$OUT" <<'PY' | tee -a "$summary"
import json, sys
docs = {enc: json.load(open(f"{sys.argv[1]}/explain-{enc}.json")) for enc in ("gbk", "utf-16", "utf-8")}
strip = lambda d: (json.dumps([(c["id"], c["confidence"]) for c in d["causes"]]), json.dumps({k: (v.get("value") if isinstance(v, dict) else None) for k, v in d["environment"].items() if isinstance(v, dict)}, sort_keys=True))
same = len({strip(d) for d in docs.values()}) == 1
print(f"same diagnosis and facts from GBK, UTF-16 and UTF-8: {'yes' if same else 'NO'}")
PY
head -c 300 "$OUT/zh-logs/oom-gbk.log" | od -c | head -5 > "$OUT/zh-logs/gbk-head.od.txt"

# 2. Linux stays Linux: no Windows syntax in any fix of check on this machine
$CLI check --json > "$OUT/check.json" 2> /dev/null
python3 - "$OUT/check.json" <<'PY' | tee -a "$summary"
import json, re, sys
d = json.load(open(sys.argv[1]))
bad = [f["check"] for f in d["findings"] if f.get("fix") and re.search(r"taskkill|tasklist|\$env:|where\.exe|^set [A-Z_]+=", "\n".join(f["fix"].get("commands", []) + f["fix"].get("manual", [])), re.M)]
print(f"check on the H200: {len(d['findings'])} findings, Windows syntax in fixes: {bad or 'none'}")
PY

# 3. PaddlePaddle specs against this machine (Python 3.12, driver 580, sm_90, nvcc 13.0)
for spec in paddlepaddle-gpu==2.6.1.post120 paddlepaddle-gpu==2.5.2 paddle==3.0.0b2 paddle==2.4.2; do
  $CLI compat "$spec" -v > "$OUT/compat-$spec.txt" 2>&1; rc=$?
  say "compat $spec: exit $rc; $(grep -m1 '^Verdict' "$OUT/compat-$spec.txt")"
done
