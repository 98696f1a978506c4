def _gpucheck_framework(ctx):
    import os
    import sys
    say, warn, size = ctx["say"], ctx["warn"], ctx["size"]
    # Before JAX starts: its 75% preallocation fails (with misleading messages) when others hold the memory.
    prealloc = os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "true").strip().lower() not in ("false", "0")
    try:
        fraction = float(os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION") or os.environ.get("XLA_CLIENT_MEM_FRACTION") or 0.75)
    except ValueError:
        fraction = 0.75
    if prealloc and "jax" not in sys.modules:
        for g in ctx["gpus"]:
            if g["total"] is not None and g["free"] is not None and g["free"] < fraction * g["total"]:
                warn("JAX will reserve %d%% of GPU %d (%s) at its first operation, but only %s is free: set "
                     "XLA_PYTHON_CLIENT_PREALLOCATE=false (or a smaller XLA_PYTHON_CLIENT_MEM_FRACTION) before Python starts"
                     % (round(fraction * 100), g["index"], size(fraction * g["total"]), size(g["free"])))
    try:
        import jax
        import jaxlib
    except ImportError as e:
        raise SystemExit("[gpu-check] cannot import jax in %s: %s" % (sys.executable, e))

    def version(v, scheme):
        if not v:
            return "?"
        if scheme == "cuda":
            return "%d.%d" % (v // 1000, v % 1000 // 10)
        return "%d.%d.%d" % ((v // 10000, v % 10000 // 100, v % 100) if v >= 90000 else (v // 1000, v % 1000 // 100, v % 100))

    cuda = cudnn = "?"
    try:
        from jax._src.lib import cuda_versions  # private, but the only place JAX reports them
        if cuda_versions is not None:
            cuda = version(cuda_versions.cuda_runtime_get_version(), "cuda")
            cudnn = version(cuda_versions.cudnn_get_version(), "cudnn")
    except Exception:
        pass
    say("jax %s, jaxlib %s, CUDA runtime %s, cuDNN %s" % (jax.__version__, jaxlib.__version__, cuda, cudnn))
    try:
        devices = jax.devices("gpu")
    except RuntimeError as e:
        warn("JAX found no GPU: %s" % str(e).splitlines()[0])
        warn("under memory pressure JAX says 'no supported devices found' even though a GPU exists: "
             "see the free memory above")
        return
    for d in devices:
        stats = {}
        try:
            stats = d.memory_stats() or {}
        except Exception:
            pass
        limit = stats.get("bytes_limit")
        say("JAX uses %s (%s)%s" % (d, d.device_kind, ", pool of %s" % size(limit / 2.0 ** 20) if limit else ""))
    _gpucheck_loaded_libraries(say)
