#!/usr/bin/env bash
# Issue 23 item 1 on a real GPU: `fix --yes` ends leftovers, never work that detached on purpose.
#
# Starts eight CUDA holders, each holding GPU memory with the shell that launched it gone:
#   keep  server   `nohup` torch model server, idle between requests, listening on 127.0.0.1 (answers before and after)
#   keep  loop     `nohup` GPU-bound loop waiting on torch.cuda.Event(blocking=True): GPU busy, little CPU
#   keep  gpuloop  the same loop without nohup: "orphaned" in procs, kept by fix's watch (SM activity or CPU)
#   keep  pipe     a `setsid` job waiting on a named pipe
#   keep  daemon   a double-forked daemon (fork, setsid, fork; chdir /, stdio on /dev/null, as daemon(3) does)
#   keep  fork2    the audit's double fork: fork, setsid, fork, folder kept, idle, output discarded (session ended:
#                  kept by the lost-session rule alone, no recent output to go by)
#   keep  tmux     a job under a live tmux server (skipped, and said so, where tmux is missing)
#   end   worker   a real DataLoader worker (spawn, CUDA in worker_init_fn) stuck in a read, its trainer SIGKILLed
#   end   stopped  a job stopped with SIGSTOP
# then runs `procs --json`, `procs -v`, `fix --dry-run --json`, `fix --yes` and records who survived.
# Writes to $OUT: summary.md (the table: verdict, planned and why, ended), procs.json, procs.txt, plan.json,
# fix-yes.txt, server.txt (the server's answers), holders.txt (pid/ppid/pgid/sid/SigIgn/cwd of each), nvidia-smi.txt.
# Exit 0 when every row is as expected. About 1.5 minutes; every process started here is ended on exit.
#
# there: source .gpu-lab/env.sh && OUT=$OUT bash gpu-lab/never-harm.sh
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
PY=${PY:-$(command -v python3)}
CLI=(node dist/cli.js)
W=$(mktemp -d /tmp/never-harm.XXXXXX)
chmod 755 "$W"
PORT=${PORT:-18923}
TMUX_SOCK="$W/tmux.sock"
HAVE_TMUX=0
command -v tmux >/dev/null 2>&1 && HAVE_TMUX=1

cleanup() {
  for f in "$W"/*.pid; do
    [ -f "$f" ] || continue
    p=$(cat "$f" 2>/dev/null)
    case "$p" in '' | *[!0-9]*) continue ;; esac
    kill -CONT "$p" 2>/dev/null
    kill -KILL "$p" 2>/dev/null
  done
  [ "$HAVE_TMUX" = 1 ] && tmux -S "$TMUX_SOCK" kill-server 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT

cat >"$W/holder.py" <<'PY'
# holder.py MODE DIR [PORT]: holds GPU memory the way each kind of job does; writes DIR/NAME.pid and DIR/NAME.ready.
# The dispatch sits under __main__: the DataLoader's spawn worker imports this file again.
import os, sys, time

def mark(d, name):
    open(os.path.join(d, name + '.pid'), 'w').write(str(os.getpid()))
    open(os.path.join(d, name + '.ready'), 'w').write('1')

def hold(mib):
    import torch
    return torch.empty(mib << 20, dtype=torch.uint8, device='cuda')

class Slow:
    """A map-style dataset whose read hangs (a stuck network filesystem, a lock)."""
    def __len__(self): return 10
    def __getitem__(self, i): time.sleep(3600); return i

def init_worker(_):
    global held
    held = hold(512)
    mark(os.environ['NEVER_HARM_DIR'], 'worker')

if __name__ == '__main__':
    mode, d = sys.argv[1], sys.argv[2]
    if mode == 'server':
        # a model server: weights on the GPU, one forward pass per request, idle between requests
        import torch, http.server
        w = torch.randn(8192, 8192, device='cuda'); extra = hold(2048)
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                y = (w @ torch.randn(8192, 1, device='cuda')).sum().item()
                body = ('ok %.3f\n' % y).encode()
                self.send_response(200); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
            def log_message(self, *a): pass
        srv = http.server.HTTPServer(('127.0.0.1', int(sys.argv[3])), H)
        mark(d, mode); srv.serve_forever()
    elif mode in ('loop', 'gpuloop'):
        # GPU-bound: each step waits for the GPU with a blocking event (the thread sleeps, so CPU use stays low)
        import torch
        a = torch.randn(8192, 8192, device='cuda'); b = torch.randn(8192, 8192, device='cuda'); extra = hold(1024)
        ev = torch.cuda.Event(blocking=True)
        mark(d, mode)
        while True:
            for _ in range(40): c = a @ b
            ev.record(); ev.synchronize()
    elif mode == 'pipe':
        x = hold(1024); mark(d, mode)
        with open(os.path.join(d, 'fifo')) as f: f.read()   # waits for a writer that never comes
        time.sleep(3600)
    elif mode == 'daemon':
        if os.fork() > 0: os._exit(0)
        os.setsid()
        if os.fork() > 0: os._exit(0)
        os.chdir('/'); os.umask(0o022)
        nul = os.open('/dev/null', os.O_RDWR)
        for fd in (0, 1, 2): os.dup2(nul, fd)
        x = hold(1024); mark(d, mode); time.sleep(3600)
    elif mode == 'fork2':
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                x = hold(1024); mark(d, mode); time.sleep(3600)
            os._exit(0)
        os.wait()
    elif mode in ('tmux', 'stopped'):
        x = hold(1024); mark(d, mode); time.sleep(3600)
    elif mode == 'trainer':
        # a training job whose DataLoader worker (spawn) initialises CUDA, then hangs in a read
        from torch.utils.data import DataLoader
        os.environ['NEVER_HARM_DIR'] = d
        x = hold(1024)
        open(os.path.join(d, 'trainer.pid'), 'w').write(str(os.getpid()))
        dl = DataLoader(Slow(), num_workers=1, multiprocessing_context='spawn', worker_init_fn=init_worker)
        for batch in dl: pass
PY

wait_ready() { # wait_ready NAME...: up to 90 s for each NAME.ready
  for n in "$@"; do
    for _ in $(seq 180); do [ -f "$W/$n.ready" ] && break; sleep 0.5; done
    [ -f "$W/$n.ready" ] || echo "did not get ready: $n" | tee -a "$OUT/problems.txt"
  done
}
pid_of() { cat "$W/$1.pid" 2>/dev/null; }

mkfifo "$W/fifo"
# Each launching shell exits at once: the holders are adopted, as when a user logs out.
bash -c "nohup '$PY' '$W/holder.py' server '$W' $PORT >/dev/null 2>&1 &"
bash -c "nohup '$PY' '$W/holder.py' loop '$W' >/dev/null 2>&1 &"
bash -c "'$PY' '$W/holder.py' gpuloop '$W' </dev/null >/dev/null 2>&1 &"
bash -c "setsid '$PY' '$W/holder.py' pipe '$W' </dev/null >'$W/pipe.log' 2>&1 &"
bash -c "'$PY' '$W/holder.py' daemon '$W' </dev/null >'$W/daemon.log' 2>&1"
bash -c "'$PY' '$W/holder.py' fork2 '$W' </dev/null >/dev/null 2>&1"
if [ "$HAVE_TMUX" = 1 ]; then
  if ! tmux -S "$TMUX_SOCK" new-session -d -s never-harm "'$PY' '$W/holder.py' tmux '$W'" 2>>"$OUT/problems.txt"; then
    HAVE_TMUX=0
    echo "tmux could not start a session here: the tmux case is skipped" | tee -a "$OUT/problems.txt"
  fi
else
  echo "tmux is not installed here: the tmux case is skipped" | tee -a "$OUT/problems.txt"
fi
bash -c "'$PY' '$W/holder.py' stopped '$W' </dev/null >/dev/null 2>&1 &"
bash -c "'$PY' '$W/holder.py' trainer '$W' </dev/null >/dev/null 2>&1 &"
CASES="server loop gpuloop pipe daemon fork2 stopped worker"
[ "$HAVE_TMUX" = 1 ] && CASES="server loop gpuloop pipe daemon fork2 tmux stopped worker"
wait_ready $CASES
kill -STOP "$(pid_of stopped)"
TR=$(pid_of trainer)
kill -KILL "$TR" 2>/dev/null
for _ in $(seq 40); do [ -d "/proc/$TR" ] || break; sleep 0.25; done
# let the loop's launch settle and nvidia-smi list the holders
sleep 3

ask() { "$PY" - "$PORT" <<'PY' 2>&1
import sys, urllib.request
try: print(urllib.request.urlopen('http://127.0.0.1:%s/' % sys.argv[1], timeout=10).read().decode().strip())
except Exception as e: print('no answer:', e)
PY
}
echo "server before: $(ask)" | tee "$OUT/server.txt"
{
  echo "this script: pid $$ sid $(awk '{print $6}' /proc/$$/stat); PID 1: $(cat /proc/1/comm)"
  for n in $CASES; do
    p=$(pid_of "$n")
    [ -n "$p" ] && [ -r "/proc/$p/stat" ] || { echo "$n: not running"; continue; }
    echo "$n: pid $p ppid $(awk '{print $4}' /proc/$p/stat) pgid $(awk '{print $5}' /proc/$p/stat) sid $(awk '{print $6}' /proc/$p/stat) state $(awk '{print $3}' /proc/$p/stat) $(grep SigIgn /proc/$p/status) cwd $(readlink /proc/$p/cwd)"
  done
} >"$OUT/holders.txt"
cat "$OUT/holders.txt"
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >"$OUT/nvidia-smi.txt" 2>&1
nvidia-smi pmon -c 1 -s u >>"$OUT/nvidia-smi.txt" 2>&1

"${CLI[@]}" procs --json >"$OUT/procs.json"; echo "procs --json exit $?"
"${CLI[@]}" procs -v --no-color >"$OUT/procs.txt"; echo "procs -v exit $?"
"${CLI[@]}" fix --dry-run --json >"$OUT/plan.json"; echo "fix --dry-run --json exit $?"
"${CLI[@]}" fix --yes --grace 3 --no-color >"$OUT/fix-yes.txt" 2>&1; echo "fix --yes exit $?"
sleep 1
echo "server after: $(ask)" | tee -a "$OUT/server.txt"
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >>"$OUT/nvidia-smi.txt" 2>&1

: >"$W/alive.txt"
for n in $CASES; do
  p=$(pid_of "$n")
  [ -n "$p" ] || { echo "$n: never started (see problems.txt)" | tee -a "$OUT/problems.txt"; continue; }
  st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
  if [ -n "$st" ] && [ "$st" != Z ]; then echo "$n $p alive" >>"$W/alive.txt"; else echo "$n $p ended" >>"$W/alive.txt"; fi
done
"$PY" - "$OUT" "$W/alive.txt" "$OUT/server.txt" <<'PY'
import json, sys
out, alive_file, server_file = sys.argv[1:4]
expect = {'server': 'keep', 'loop': 'keep', 'gpuloop': 'keep', 'pipe': 'keep', 'daemon': 'keep', 'fork2': 'keep', 'tmux': 'keep', 'worker': 'end', 'stopped': 'end'}
what = {'server': '`nohup` model server, idle, listening', 'loop': '`nohup` GPU loop, blocking CUDA event', 'gpuloop': 'the same loop without nohup (kept by what fix watches)', 'pipe': '`setsid` job waiting on a pipe',
        'daemon': 'double-forked daemon', 'fork2': 'double fork keeping its folder, idle (session ended)', 'tmux': 'job under a live tmux server', 'worker': 'DataLoader worker, trainer killed', 'stopped': 'stopped job (SIGSTOP)'}
procs = {p['pid']: p for p in json.load(open(out + '/procs.json'))['processes']}
plan = json.load(open(out + '/plan.json'))
planned = {s['pid']: s for s in plan['processes']}
alone = {s['pid']: s for s in plan['leftAlone']}
rows, bad = [], 0
server_after = open(server_file).read().splitlines()[-1]
for line in open(alive_file):
    name, pid, state = line.split()
    pid = int(pid)
    p = procs.get(pid, {})
    if pid in planned:
        s = planned[pid]; plan_txt = ('end' if s['action'] == 'end' else 'skip: ' + s.get('blocked', '')) + ' — ' + s['why']
    elif pid in alone:
        plan_txt = 'left alone — ' + alone[pid]['why']
    else:
        plan_txt = 'not in the plan'
    ended = state == 'ended'
    ok = ended if expect[name] == 'end' else not ended
    if name == 'server' and not server_after.startswith('server after: ok'):
        ok = False
    bad += 0 if ok else 1
    esc = lambda s: str(s).replace('|', '\\|').replace('\n', ' ')
    rows.append(f"| {what[name]} | {pid} | {esc(p.get('verdict', '?'))}: {esc(p.get('reason', ''))} | {esc(plan_txt)} | {'ended' if ended else 'alive'} | {expect[name]} | {'PASS' if ok else 'FAIL'} |")
md = ['# never-harm on the GPU', '', server_after, '',
      '| holder | PID | procs verdict | fix plan (--dry-run) | after fix --yes | expected | result |', '|---|---|---|---|---|---|---|', *rows, '',
      f'{len(rows) - bad} of {len(rows)} as expected.']
open(out + '/summary.md', 'w').write('\n'.join(md) + '\n')
print('\n'.join(md))
sys.exit(1 if bad else 0)
PY
