#!/usr/bin/env bash
# Issue 23 (serve, fleet) on the H200: the reproductions of the 2026-12-03 audit (M2, L3, L4, L6) re-run as
# written, against the real nvidia-smi where serve samples one. None may reproduce. Every process it starts is
# ended by PID; everything lives in a temp folder.
#   here:  ../shared/gpu-lab/prepare-node.sh && npm run build      (carry .gpu-lab and dist)
#   there: source .gpu-lab/env.sh && OUT=/some/dir bash gpu-lab/serve-never-harm.sh
# Evidence in $OUT: summary.txt (PASS/FAIL per finding), m2.txt, l3.txt, l4.txt, l6.txt. About 2 minutes.
set -u
: "${OUT:?set OUT to the folder for the evidence}"
mkdir -p "$OUT"
CLI="$PWD/dist/cli.js"
W=$(mktemp -d)
STARTED=()
cleanup() {
  for p in "${STARTED[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT
SUM="$OUT/summary.txt"
: >"$SUM"
FAILS=0
say() { echo "$*" | tee -a "$SUM"; }
check() { if [ "$2" -eq 0 ]; then say "PASS $1"; else say "FAIL $1"; FAILS=$((FAILS + 1)); fi; }
code() { curl -s -o /dev/null -m 3 -w '%{http_code}' "$1" 2>/dev/null || echo none; }
say "serve-never-harm.sh on $(hostname), $(date -u +%FT%TZ); node $(node --version); nvidia-smi $(command -v nvidia-smi || echo none)"
SNAP=$W/snap.json
node "$CLI" snapshot >"$SNAP" 2>/dev/null || cp examples/snapshots/h200-idle.json "$SNAP"

# ---- M2: a *.json swapped for a FIFO between the walk and the read (the audit's swap.py, 20 s) ---------------
mkdir "$W/race"; cp "$SNAP" "$W/race/a.json"
cat >"$W/swap.py" <<'EOF'
import os, time, sys
d = sys.argv[1]; end = time.time() + float(sys.argv[2])
os.mkfifo(d + '/.f'); open(d + '/.r', 'w').write(open(d + '/a.json').read())
while time.time() < end:
    os.link(d + '/.f', d + '/.tmp'); os.rename(d + '/.tmp', d + '/x.json')
    os.link(d + '/.r', d + '/.tmp'); os.rename(d + '/.tmp', d + '/x.json')
EOF
node "$CLI" serve --fleet "$W/race" --port 5922 --interval 0.5 >"$W/m2.out" 2>&1 & S=$!; STARTED+=("$S"); sleep 2
python3 "$W/swap.py" "$W/race" 20 & P=$!; STARTED+=("$P")
ok=0
for i in $(seq 6); do sleep 5; c=$(code http://127.0.0.1:5922/state.json); echo "t=$((i * 5))s $c" >>"$OUT/m2.txt"; [ "$c" = 200 ] || ok=1; done
kill "$P" 2>/dev/null; kill -TERM "$S"; wait "$S" 2>/dev/null
check "M2: serve --fleet answered every 5 s during and after a FIFO/file swap race ($(tr '\n' ' ' <"$OUT/m2.txt"))" $ok

# ---- L6: a link to /etc/shadow in the fleet folder --------------------------------------------------------
mkdir "$W/fl3"; cp "$SNAP" "$W/fl3/"; ln -s /etc/shadow "$W/fl3/x.json"
node "$CLI" fleet "$W/fl3" --no-color >"$OUT/l6.txt" 2>&1
node "$CLI" serve --fleet "$W/fl3" --port 5921 >/dev/null 2>&1 & S=$!; STARTED+=("$S"); sleep 4
curl -s http://127.0.0.1:5921/ | grep -o '<li><code>[^<]*x.json.*</li>' >>"$OUT/l6.txt"; kill -TERM "$S"; wait "$S" 2>/dev/null
! grep -q 'root:' "$OUT/l6.txt" && grep -q 'outside the folder' "$OUT/l6.txt"
check "L6: the link to /etc/shadow skipped as a link outside the folder, no content shown" $?

# ---- L3: 170 half-open connections held, reopened when closed (the audit's slow.py, 30 s) -----------------
cat >"$W/slow.py" <<'EOF'
import socket, time, urllib.request, sys, threading
port, url, hold = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]); socks = []
def opener():
    s = socket.create_connection(('127.0.0.1', port), timeout=2); s.sendall(b'GET / HTTP/1.1\r\nHost: localhost\r\n'); return s
end = time.time() + hold
def keep():
    while time.time() < end:
        for i in range(len(socks)):
            try:
                socks[i].setblocking(False)
                if socks[i].recv(1) == b'': raise OSError
            except BlockingIOError: pass
            except OSError:
                try: socks[i] = opener()
                except OSError: pass
        while len(socks) < 170:
            try: socks.append(opener())
            except OSError: break
        time.sleep(0.2)
threading.Thread(target=keep, daemon=True).start(); t0 = time.time()
while time.time() < end + 10:
    time.sleep(5)
    try: res = urllib.request.urlopen(url, timeout=4).status
    except Exception as e: res = type(e).__name__
    print(f't={time.time()-t0:4.0f}s attacker={"on " if time.time() < end else "off"} page: {res}', flush=True)
    if time.time() > end: [s.close() for s in socks]; socks.clear()
EOF
node "$CLI" serve --port 5931 >/dev/null 2>&1 & S=$!; STARTED+=("$S"); sleep 3
python3 "$W/slow.py" 5931 http://127.0.0.1:5931/state.json 30 >"$OUT/l3.txt" 2>&1; kill -TERM "$S"; wait "$S" 2>/dev/null
! grep -v 'page: 200' "$OUT/l3.txt" | grep -q 'page:'
check "L3: the page answered 200 at every probe while 170 partial requests were held ($(grep -c 'page: 200' "$OUT/l3.txt") probes)" $?

# ---- L4: a hanging nvidia-smi (a wrapper whose child hangs): none left after SIGTERM ------------------------
mkdir "$W/hang2"; printf '#!/bin/sh\nsleep 1003 & wait\n' >"$W/hang2/nvidia-smi"; chmod +x "$W/hang2/nvidia-smi"
PATH=$W/hang2:$PATH node "$CLI" serve --port 5951 --timeout 60 >/dev/null 2>&1 & S=$!; STARTED+=("$S"); sleep 5
before=$(pgrep -fc '^sleep 1003$'); kill -TERM "$S"; wait "$S" 2>/dev/null; sleep 3
after=$(pgrep -fc '^sleep 1003$'); ps -eo pid,ppid,etimes,cmd | grep '[s]leep 1003' >"$OUT/l4.txt"
echo "while serving: $before; 3 s after SIGTERM: $after" >>"$OUT/l4.txt"
[ "$before" -gt 0 ] && [ "$after" -eq 0 ]
check "L4: hung nvidia-smi children while serving $before, after SIGTERM $after" $?
# and with the real nvidia-smi: serve stops at once, nothing left
node "$CLI" serve --port 5952 >/dev/null 2>&1 & S=$!; STARTED+=("$S"); sleep 4; kill -TERM "$S"; t0=$(date +%s%N); wait "$S"; rc=$?
say "real nvidia-smi: serve exited $rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms after SIGTERM; nvidia-smi left: $(pgrep -c -x nvidia-smi || true)"

say "failures: $FAILS"
exit "$FAILS"
