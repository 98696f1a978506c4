# gpu-env-doctor's probe: runs inside the user's interpreter, one framework per process, so that a crash or
# a hang in one framework's import cannot take the others (or the doctor) down.
#
#   python -c "<this file>" torch|tensorflow|jax [--conv] [--mode configured|memory-growth]
#
# Standard library only, Python 3.6+ syntax. Every finding is printed at once as a line
#   @@gpu-env-doctor@@ {"stage": "...", ...}
# so that if the process dies half-way (a segfault in a CUDA library) what came before is kept.
# The doctor decides what it means; this script only reports, with the exact error text.
import importlib
import json
import os
import sys
import time
import traceback

MARK = "@@gpu-env-doctor@@ "

# `python -c` puts the current directory first on sys.path; a folder named "torch" or "jax" there would
# shadow the real package. A training script run as `python train.py` does not search the cwd either.
# (The doctor also starts this in a new empty folder with PYTHONSAFEPATH=1, so the imports above cannot come
# from the user's working directory: that is what keeps a json.py there from running.)
if sys.path and sys.path[0] in ("", os.getcwd()):
    sys.path.pop(0)


def emit(stage, data):
    out = {"stage": stage}
    out.update(data)
    sys.stdout.write(MARK + json.dumps(out, default=str) + "\n")
    sys.stdout.flush()


def err(e):
    t = type(e)
    mod = getattr(t, "__module__", "")
    name = t.__name__ if mod in ("builtins", "", None) else mod + "." + t.__name__
    return {"type": name, "message": str(e)[-4000:]}


def attempt(fn, with_traceback=False):
    """Run fn(); return (value, None) or (None, error dict)."""
    try:
        return fn(), None
    except BaseException as e:  # noqa: B902 - SystemExit from a framework's import is data too
        out = err(e)
        if with_traceback:
            out["traceback"] = traceback.format_exc()[-3000:]
        return None, out


def import_framework(name, also=()):
    """Imports a module (and `also`, its submodules the probe needs) and reports the "import" stage;
    None, reported with its traceback, when any of them fails."""
    t0 = time.time()
    try:
        mod = importlib.import_module(name)
        for sub in also:
            importlib.import_module(sub)
    except BaseException as e:  # noqa: B902 - a crashing import is the fact we came for
        emit("import", {"ok": False, "error": err(e), "traceback": traceback.format_exc()[-6000:],
                        "seconds": round(time.time() - t0, 3)})
        return None
    emit("import", {"ok": True, "seconds": round(time.time() - t0, 3), "file": getattr(mod, "__file__", None)})
    return mod


class Facts(object):
    """Facts gathered one by one: a fact whose call fails is kept as its error, the others still count."""

    def __init__(self):
        self.info, self.errors = {}, {}

    def put(self, key, fn):
        v, e = attempt(fn)
        if e is None:
            self.info[key] = v
        else:
            self.errors[key] = e

    def emit(self):
        emit("info", {"info": self.info, "errors": self.errors})


LIB_NAMES = ("libcudnn", "libcudart", "libcublas", "libnccl", "libcuda.so", "libnvrtc", "libnvJitLink",
             "libcufft", "libcusparse", "libcusolver", "libcurand", "libtorch_cuda", "libnvidia-ml")


def loaded_libraries():
    """The CUDA libraries this process has mapped: the loaded file is the truth, not what ldconfig lists."""
    seen = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) < 6:
                    continue
                path = parts[5].strip()
                base = os.path.basename(path)
                if any(base.startswith(n) for n in LIB_NAMES) and path not in seen:
                    seen.append(path)
    except OSError:
        pass
    return seen


def mib(n):
    return None if n is None else int(n) // (1024 * 1024)


# ---------------------------------------------------------------- torch
#
# The user's path first: a training script runs its convolution before it asks the framework anything, and
# frameworks check things once. torch.backends.cudnn caches the cuDNN version even when its version check
# raises, so a torch.backends.cudnn.version() call made before the convolution would swallow the failure the
# user gets (seen in the lab: the check raised once, the convolution after it ran). So each probe tries the
# convolution straight after the import, then gathers its facts; every fact that raises is reported as an
# error of that fact, never dropped.

def timed_attempt(fn):
    t = time.time()
    _, e = attempt(fn, True)
    return e, round(time.time() - t, 3)


def torch_probe(do_conv):
    torch = import_framework("torch")
    if torch is None:
        return

    def conv():
        x = torch.randn(8, 3, 64, 64, device="cuda")
        w = torch.randn(16, 3, 3, 3, device="cuda")
        y = torch.nn.functional.conv2d(x, w, padding=1)
        torch.cuda.synchronize()
        return float(y.float().abs().sum().item())

    # Plain attributes of the build, read before the convolution: they run no check, and survive a crash in it.
    facts = Facts()
    put = facts.put
    put("version", lambda: torch.__version__)
    put("cudaBuild", lambda: torch.version.cuda)
    put("hip", lambda: getattr(torch.version, "hip", None))
    put("gitVersion", lambda: getattr(torch.version, "git_version", None))
    facts.emit()

    first = None
    if do_conv:
        e, secs = timed_attempt(conv)
        mem, _ = attempt(lambda: torch.cuda.mem_get_info(0))
        first = {"mode": "configured", "ok": e is None, "error": e, "seconds": secs,
                 "freeMiB": mib(mem[0]) if mem else None, "totalMiB": mib(mem[1]) if mem else None}

    facts = Facts()
    put = facts.put
    put("cudaAvailable", lambda: torch.cuda.is_available())
    put("deviceCount", lambda: torch.cuda.device_count())

    def devices():
        out = []
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            out.append({"index": i, "name": p.name, "capability": [p.major, p.minor], "totalMiB": mib(p.total_memory)})
        return out

    put("devices", devices)
    put("cudnnAvailable", lambda: torch.backends.cudnn.is_available())
    put("cudnnEnabled", lambda: torch.backends.cudnn.enabled)
    # The compiled and run-time versions straight from the extension: they do not go through the cached check.
    put("cudnnCompiled", lambda: list(torch._C._cudnn.getCompileVersion()))
    put("cudnnRuntime", lambda: list(torch._C._cudnn.getRuntimeVersion()))
    put("cudnnVersion", lambda: torch.backends.cudnn.version())
    put("archList", lambda: torch.cuda.get_arch_list())
    put("allocatorBackend", lambda: torch.cuda.get_allocator_backend())
    facts.info["allocatorConf"] = os.environ.get("PYTORCH_CUDA_ALLOC_CONF") or os.environ.get("PYTORCH_ALLOC_CONF")
    facts.emit()

    if first is None:
        return
    if not first["ok"] and facts.info.get("cudaAvailable") is False:
        emit("conv", {"mode": "configured", "skipped": "torch.cuda.is_available() is False", "error": first["error"]})
        return
    emit("conv", first)
    if first["ok"]:
        return
    # Second chance with the least memory torch can need: cached blocks released, and no cuDNN
    # benchmark (which tries algorithms with large workspaces).
    attempt(torch.cuda.empty_cache)
    torch.backends.cudnn.benchmark = False
    mem, _ = attempt(lambda: torch.cuda.mem_get_info(0))
    e, secs = timed_attempt(conv)
    emit("conv", {"mode": "no-cache", "ok": e is None, "error": e, "seconds": secs,
                  "freeMiB": mib(mem[0]) if mem else None, "totalMiB": mib(mem[1]) if mem else None})


# ---------------------------------------------------------------- tensorflow

def tensorflow_probe(do_conv, mode):
    tf = import_framework("tensorflow")
    if tf is None:
        return

    def conv():
        with tf.device("/GPU:0"):
            x = tf.random.normal([8, 64, 64, 3])
            w = tf.random.normal([3, 3, 3, 16])
            y = tf.nn.conv2d(x, w, strides=1, padding="SAME")
            return float(tf.reduce_sum(tf.abs(y)).numpy())

    first = None
    if do_conv and mode != "memory-growth":
        # As configured, the convolution is the first thing the process does.
        e, secs = timed_attempt(conv)
        first = {"mode": mode, "ok": e is None, "error": e, "seconds": secs}

    facts = Facts()
    put = facts.put
    put("version", lambda: tf.__version__)
    put("builtWithCuda", lambda: tf.test.is_built_with_cuda())
    put("buildInfo", lambda: dict(tf.sysconfig.get_build_info()))
    gpus, e = attempt(lambda: tf.config.list_physical_devices("GPU"))
    if e:
        facts.errors["gpus"] = e
        gpus = []
    facts.info["gpus"] = [g.name for g in gpus]
    if do_conv and mode == "memory-growth":
        # Memory growth must be set before any op: the user's path with growth is list, set, then run.
        for g in gpus:
            _, ge = attempt(lambda: tf.config.experimental.set_memory_growth(g, True))
            if ge:
                facts.errors["setMemoryGrowth"] = ge
    facts.emit()
    if not do_conv:
        return
    if not gpus and (first is None or not first["ok"]):
        out = {"mode": mode, "skipped": "tf.config.list_physical_devices('GPU') is empty"}
        if first is not None:
            out["error"] = first["error"]
        emit("conv", out)
        return
    if first is None:
        e, secs = timed_attempt(conv)
        first = {"mode": mode, "ok": e is None, "error": e, "seconds": secs}
    emit("conv", first)


# ---------------------------------------------------------------- jax

def jax_probe(do_conv, mode):
    jax = import_framework("jax", also=("jax.numpy",))
    if jax is None:
        return
    jnp = sys.modules["jax.numpy"]

    def conv():
        x = jnp.ones((8, 3, 64, 64), jnp.float32)
        w = jnp.ones((16, 3, 3, 3), jnp.float32)
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME")
        y.block_until_ready()
        return float(jnp.abs(y).sum())

    first = None
    if do_conv:
        e, secs = timed_attempt(conv)
        first = {"mode": mode, "ok": e is None, "error": e, "seconds": secs}

    facts = Facts()
    put = facts.put
    put("version", lambda: jax.__version__)

    def jaxlib_version():
        import jaxlib
        return getattr(jaxlib, "__version__", None) or __import__("jaxlib.version").version.__version__

    put("jaxlib", jaxlib_version)
    put("backend", lambda: jax.default_backend())

    def devices():
        return [{"id": d.id, "platform": d.platform, "kind": getattr(d, "device_kind", None)} for d in jax.devices()]

    put("devices", devices)
    for k in ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_CLIENT_MEM_FRACTION",
              "XLA_PYTHON_CLIENT_ALLOCATOR", "JAX_PLATFORMS"):
        if os.environ.get(k) is not None:
            facts.info.setdefault("allocatorEnv", {})[k] = os.environ[k]
    facts.emit()
    if first is None:
        return
    if facts.info.get("backend") not in ("gpu", "cuda", "rocm"):
        # Falling back to the CPU is how JAX reports a GPU it could not use (the convolution then runs on
        # the CPU and "works"); the reason is on stderr.
        e = facts.errors.get("backend") or facts.errors.get("devices") or {
            "type": "NoGpuBackend", "message": "JAX's default backend is %s, not the GPU" % facts.info.get("backend")}
        emit("conv", {"mode": mode, "ok": False, "error": e, "seconds": 0})
        return
    stats, _ = attempt(lambda: jax.devices()[0].memory_stats())
    limit = stats.get("bytes_limit") if isinstance(stats, dict) else None
    first.update({"freeMiB": None, "totalMiB": mib(limit)})
    emit("conv", first)


def main(argv):
    framework = argv[0] if argv else ""
    do_conv = "--conv" in argv
    mode = "configured"
    if "--mode" in argv and argv.index("--mode") + 1 < len(argv):
        mode = argv[argv.index("--mode") + 1]
    emit("start", {"framework": framework, "python": sys.version.split()[0], "executable": sys.executable,
                   "prefix": sys.prefix, "pid": os.getpid()})
    if framework == "torch":
        torch_probe(do_conv)
    elif framework == "tensorflow":
        tensorflow_probe(do_conv, mode)
    elif framework == "jax":
        jax_probe(do_conv, mode)
    else:
        emit("error", {"message": "unknown framework %r" % framework})
        return 2
    emit("libraries", {"loaded": loaded_libraries()})
    emit("done", {})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
