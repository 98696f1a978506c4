def _gpucheck_framework(ctx):
    import sys
    say, warn = ctx["say"], ctx["warn"]
    try:
        import tensorflow as tf
    except ImportError as e:
        raise SystemExit("[gpu-check] cannot import tensorflow in %s: %s" % (sys.executable, e))
    gpus = tf.config.list_physical_devices("GPU")
    # Memory growth first, before any op: otherwise TensorFlow takes nearly all GPU memory at start.
    for g in gpus:
        try:
            tf.config.experimental.set_memory_growth(g, True)
        except (RuntimeError, ValueError) as e:
            warn("could not turn on memory growth for %s (%s): TensorFlow was already initialised; "
                 "put this block above any TensorFlow code" % (g.name, e))
    info = tf.sysconfig.get_build_info()
    say("tensorflow %s, built for CUDA %s, cuDNN %s" % (
        tf.__version__, info.get("cuda_version", "none"), info.get("cudnn_version", "none")))
    if not tf.test.is_built_with_cuda():
        warn("this TensorFlow is a CPU-only build (on Linux install tensorflow[and-cuda])")
    if not gpus:
        warn("TensorFlow sees no GPU: its own log above says why (e.g. 'Cannot dlopen some GPU libraries'); "
             "run: gpu-env-doctor check")
        return
    for g in gpus:
        d = tf.config.experimental.get_device_details(g)
        cc = d.get("compute_capability")
        say("TensorFlow uses %s %s (compute capability %s), memory growth on" % (
            g.name, d.get("device_name", "?"), "%d.%d" % cc if cc else "?"))
    _gpucheck_loaded_libraries(say)
