#!/usr/bin/env bash
# Runs gpu-lab/safety.sh on a machine without a GPU (as root): in a private mount namespace whose /dev holds
# an empty /dev/nvidia0, with a stand-in for hog.py that holds it open and a fake nvidia-smi that lists the
# processes holding it. Checks the script's logic, not the GPU: that is for the H200.
#   bash test/gpu-lab/safety-dry-run.sh        (from the repo root, after npm run build)
set -eu
REPO=$(pwd)
D=$(mktemp -d /tmp/ged-safety-dry-XXXXXX)
chmod 755 "$D"
mkdir -p "$D/bin" "$D/out"
cat >"$D/fake-hog.py" <<'EOF'
import sys, time
f = open('/dev/nvidia0')
print('hog holding', 4.0, 'GiB', flush=True)
time.sleep(float(sys.argv[2]))
EOF
cat >"$D/bin/nvidia-smi" <<EOF
#!/usr/bin/env python3
import os, re, sys
T = '$REPO/test/fixtures/h200'
EOF
cat >>"$D/bin/nvidia-smi" <<'EOF'
def alive(p):
    try:
        st = open('/proc/%s/stat' % p).read()
        return st[st.rindex(')') + 2] != 'Z'
    except OSError:
        return False
def holds(p):
    try:
        return any(os.readlink('/proc/%s/fd/%s' % (p, fd)) == '/dev/nvidia0' for fd in os.listdir('/proc/%s/fd' % p))
    except OSError:
        return False
def hog(p):
    try:
        return b'fake-hog' in open('/proc/%s/cmdline' % p, 'rb').read()
    except OSError:
        return False
pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit() and alive(p) and hog(p) and holds(p))
a = sys.argv[1:]
if a[:1] == ['-q']:
    tpl = open(T + '/hog/nvidia-smi-q-hog.xml').read()
    procs = ''.join('<process_info><gpu_instance_id>N/A</gpu_instance_id><compute_instance_id>N/A</compute_instance_id><pid>%d</pid><type>C</type><process_name>python3</process_name><used_memory>4096 MiB</used_memory></process_info>\n' % p for p in pids)
    print(re.sub(r'<processes>.*?</processes>', '<processes>\n' + procs + '</processes>', tpl, flags=re.S))
elif a[0].startswith('--query-compute-apps=pid,'):
    print('pid, process_name, used_gpu_memory [MiB]')
    for p in pids: print('%d, python3, 4096 MiB' % p)
elif a[0] == '--query-compute-apps=pid':
    for p in pids: print(p)
elif a[0] == '--query-gpu=memory.free':
    print(100000)
elif a[0].startswith('--query-gpu=index,memory'):
    print('index, memory.total [MiB], memory.used [MiB], memory.free [MiB]\n0, 143771 MiB, 40000 MiB, 100000 MiB')
elif a[0].startswith('--query-gpu='):
    sys.stdout.write(open(T + '/idle/query-gpu.csv').read())
else:
    sys.exit(2)
EOF
chmod +x "$D/bin/nvidia-smi"
cat >"$D/inside.sh" <<'EOF'
set -e
mkdir -p "$D/realdev"
mount --bind /dev "$D/realdev"
mount -t tmpfs -o mode=755 ged-fake-dev /dev
for e in "$D"/realdev/* "$D"/realdev/.[!.]*; do [ -e "$e" ] || [ -L "$e" ] || continue; ln -s "$e" "/dev/${e##*/}"; done
: >/dev/nvidia0; chmod 666 /dev/nvidia0
cd "$REPO"
set +e
OUT="$D/out" PATH="$D/bin:$PATH" HOG_SCRIPT="$D/fake-hog.py" HOG_SECONDS=120 timeout 170 bash gpu-lab/safety.sh
echo "safety.sh exit $?"
EOF
D="$D" REPO="$REPO" unshare -m bash "$D/inside.sh"
rm -rf "$D"
