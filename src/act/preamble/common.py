def _gpucheck_common():
    """Python and the GPUs as the driver sees them, before the framework touches the GPU."""
    import os
    import platform
    import shutil
    import subprocess
    import sys

    def say(msg):
        print("[gpu-check] " + msg, file=sys.stderr, flush=True)

    def warn(msg):
        say("WARNING: " + msg)

    def size(mib):
        if mib is None:
            return "?"
        return "%.1f GiB" % (mib / 1024.0) if mib >= 1024 else "%d MiB" % round(mib)

    def smi(args):
        exe = shutil.which("nvidia-smi")
        if exe is None:
            return None
        try:
            r = subprocess.run([exe] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=15, universal_newlines=True)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout if r.returncode == 0 else None

    def rows(text):
        out = []
        for line in (text or "").splitlines():
            cells = [c.strip() for c in line.split(",")]
            if cells and cells[0][:1].isdigit():  # skips a header line and error text
                out.append(cells)
        return out

    def number(cell):  # "142848", "142848 MiB", "[N/A]"
        try:
            return float(cell.split()[0])
        except (ValueError, IndexError):
            return None

    def comm(pid):
        try:
            with open("/proc/%d/comm" % pid) as f:
                return f.read().strip()
        except OSError:
            return "?"

    def from_smi():
        text = smi(["--query-gpu=index,uuid,name,memory.total,memory.used,memory.free",
                    "--format=csv,noheader,nounits"])
        if text is None:
            return None
        gpus = [dict(index=int(c[0]), uuid=c[1], name=c[2], total=number(c[3]), used=number(c[4]),
                     free=number(c[5])) for c in rows(text) if len(c) >= 6 and c[0].isdigit()]
        apps = []
        text = smi(["--query-compute-apps=pid,process_name,used_memory,gpu_uuid", "--format=csv,noheader,nounits"])
        for c in rows(text):
            if len(c) >= 4 and c[0].isdigit():
                apps.append(dict(pid=int(c[0]), name=c[1], used=number(c[2]), uuid=c[3]))
        return gpus, apps, "nvidia-smi"

    def from_nvml():
        # NVML through ctypes, for containers without nvidia-smi. Only long-stable entry points.
        import ctypes
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
        except OSError:
            return None

        class Memory(ctypes.Structure):
            _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]

        class Proc(ctypes.Structure):  # nvmlProcessInfo_t (v2/v3)
            _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong),
                        ("gpuInstanceId", ctypes.c_uint), ("computeInstanceId", ctypes.c_uint)]

        if lib.nvmlInit_v2() != 0:
            return None
        try:
            count = ctypes.c_uint(0)
            if lib.nvmlDeviceGetCount_v2(ctypes.byref(count)) != 0:
                return None
            running = getattr(lib, "nvmlDeviceGetComputeRunningProcesses_v3", None) or \
                getattr(lib, "nvmlDeviceGetComputeRunningProcesses_v2", None)
            gpus, apps = [], []
            for i in range(count.value):
                handle = ctypes.c_void_p()
                if lib.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(handle)) != 0:
                    continue
                name, uuid, mem = ctypes.create_string_buffer(96), ctypes.create_string_buffer(96), Memory()
                lib.nvmlDeviceGetName(handle, name, 96)
                lib.nvmlDeviceGetUUID(handle, uuid, 96)
                if lib.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(mem)) != 0:
                    continue
                u = uuid.value.decode("ascii", "replace")
                gpus.append(dict(index=i, uuid=u, name=name.value.decode("utf-8", "replace"), total=mem.total / 2.0 ** 20,
                                 used=mem.used / 2.0 ** 20, free=mem.free / 2.0 ** 20))
                n, procs = ctypes.c_uint(128), (Proc * 128)()
                if running is not None and running(handle, ctypes.byref(n), procs) == 0:
                    for p in procs[:n.value]:
                        used = None if p.usedGpuMemory >= 2 ** 63 else p.usedGpuMemory / 2.0 ** 20  # NVML_VALUE_NOT_AVAILABLE
                        apps.append(dict(pid=p.pid, name=comm(p.pid), used=used, uuid=u))
            return gpus, apps, "NVML"
        finally:
            lib.nvmlShutdown()

    def visible(gpus):
        """The GPUs CUDA_VISIBLE_DEVICES leaves to this job (all of them when it is unset or unreadable here)."""
        cvd = os.environ.get("CUDA_VISIBLE_DEVICES")
        if cvd is None:
            return gpus
        items = [x.strip() for x in cvd.split(",") if x.strip()]
        if not items:
            return []
        picked = []
        for item in items:
            if item.lstrip("-").isdigit():
                if int(item) < 0:
                    break  # CUDA stops at the first invalid index
                picked += [g for g in gpus if g["index"] == int(item)]
            elif item.startswith("GPU-"):
                picked += [g for g in gpus if g["uuid"].startswith(item)]
            else:
                return gpus  # MIG-... and other forms: cannot map them here
        return picked

    say("Python %s (%s) on %s %s" % (platform.python_version(), sys.executable, platform.system(), platform.machine()))
    state = None
    try:
        state = from_smi() or from_nvml()
    except Exception as e:  # never let the self-check itself stop the job
        warn("could not read the GPUs' state: %s" % e)
    gpus, apps, source = state if state else ([], [], None)
    if state is None:
        warn("neither nvidia-smi nor libnvidia-ml.so.1 answered: no NVIDIA driver visible here "
             "(a container started without the NVIDIA runtime, or a machine without a GPU)")
    elif not gpus:
        warn("%s lists no GPU" % source)
    mine = visible(gpus)
    if gpus and "CUDA_VISIBLE_DEVICES" in os.environ:
        say("CUDA_VISIBLE_DEVICES=%r leaves %d of %d GPUs to this job" % (os.environ["CUDA_VISIBLE_DEVICES"], len(mine), len(gpus)))
    for g in mine:
        say("GPU %d %s: %s free of %s (%s)" % (g["index"], g["name"], size(g["free"]), size(g["total"]), source))
        if g["free"] is not None and g["free"] < 2048:
            warn("GPU %d has only %s free: a job there will likely fail with out of memory, or with a cuDNN "
                 "error such as CUDNN_STATUS_NOT_INITIALIZED" % (g["index"], size(g["free"])))
    uuids = set(g["uuid"] for g in mine)
    others = [a for a in apps if a["uuid"] in uuids and a["pid"] != os.getpid()]
    if others:
        index = dict((g["uuid"], g["index"]) for g in gpus)
        warn("%d other process%s already hold%s memory on this job's GPUs:" % (
            len(others), "es" if len(others) > 1 else "", "" if len(others) > 1 else "s"))
        for a in sorted(others, key=lambda a: -(a["used"] or 0)):
            say("  PID %d %s: %s on GPU %s" % (a["pid"], a["name"], size(a["used"]), index.get(a["uuid"], "?")))
        say("  leftovers of earlier jobs? `gpu-env-doctor procs` shows which are stale "
            "(or: ps -o pid,ppid,etime,stat,cmd -p PID)")
    return dict(say=say, warn=warn, size=size, gpus=mine, others=others)


def _gpucheck_loaded_libraries(say):
    """The CUDA libraries this process really loaded: the truth, whatever the environment suggests."""
    import re
    seen = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split(None, 5)[5].strip() if len(line.split(None, 5)) == 6 else ""
                if re.search(r"/lib(cudnn|cudart|cuda|cublas)\.so[.\d]*$", path) and path not in seen:
                    seen.append(path)
    except OSError:
        return
    if seen:
        say("loaded: " + ", ".join(seen))
