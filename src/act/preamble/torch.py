def _gpucheck_framework(ctx):
    import os
    import sys
    say, warn, size = ctx["say"], ctx["warn"], ctx["size"]
    try:
        import torch
    except ImportError as e:
        raise SystemExit("[gpu-check] cannot import torch in %s: %s" % (sys.executable, e))

    def cudnn_text(v):
        if not v:
            return "none"
        return "%d.%d.%d" % ((v // 10000, v % 10000 // 100, v % 100) if v >= 90000 else (v // 1000, v % 1000 // 100, v % 100))

    say("torch %s, built for CUDA %s, cuDNN %s" % (torch.__version__, torch.version.cuda or "none (a CPU-only build)",
                                                   cudnn_text(torch.backends.cudnn.version() if torch.version.cuda else None)))
    if not torch.cuda.is_available():
        why = "this torch is a CPU-only build" if torch.version.cuda is None else \
            "CUDA_VISIBLE_DEVICES hides every GPU" if ctx["gpus"] == [] and "CUDA_VISIBLE_DEVICES" in os.environ else \
            "the CUDA driver could not be initialised (run: gpu-env-doctor check)"
        warn("torch sees no GPU: %s" % why)
        return
    i = torch.cuda.current_device()
    major, minor = torch.cuda.get_device_capability(i)
    free, total = torch.cuda.mem_get_info(i)
    say("torch uses cuda:%d %s (compute capability %d.%d): %s free of %s" % (
        i, torch.cuda.get_device_name(i), major, minor, size(free / 2.0 ** 20), size(total / 2.0 ** 20)))
    archs = torch.cuda.get_arch_list()
    sm = "sm_%d%d" % (major, minor)
    if archs and sm not in archs and not any(a.startswith("compute_") for a in archs):
        warn("this torch has no code for %s (it has %s): expect 'no kernel image is available'" % (sm, " ".join(archs)))
    _gpucheck_loaded_libraries(say)
