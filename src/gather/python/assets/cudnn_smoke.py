# gpu-env-doctor's native cuDNN smoke test: can cuDNN initialise here, now, with these files?
#
#   python3 -I -S -c "<this file>" '<plan as JSON>'
#
# The plan names the exact library files a framework here would load (from gpu-env-doctor's loader emulation):
#   {"load": [paths, in load order: libcuda, libcudart, libcublasLt, libcublas, cuDNN's sub-libraries, libcudnn],
#    "cudart": path, "cudnn": path, "cublas": path or null, "wait": true|false}
# Each file is loaded by path with RTLD_GLOBAL (as torch and JAX preload theirs), so when cuDNN later opens its
# sub-libraries by soname it finds these already loaded. Every function is then looked up in the process's global
# scope, as a framework's code linked against the sonames binds it: LD_PRELOAD and /etc/ld.so.preload first, then
# the files in load order (a handle's own lookup would call the file named, even where a preload wins for the
# framework). Then, on every visible GPU (one thread each): the CUDA
# context, free memory, cudnnCreate, cublasCreate, and a convolution forward, first with the workspace cuDNN asks
# for to try every algorithm it offers (what autotuning frameworks allocate), then, if that fails for memory,
# with the smallest workspace it offers, then on a tiny tensor: "cuDNN is broken" and "no memory" differ.
#
# Standard library only (ctypes), Python 3.6+. No framework is imported. Every step is printed at once as
#   @@gpu-env-doctor-smoke@@ {"step": "...", ...}
# with CUDA's and cuDNN's own status codes and names (cudaGetErrorName, cudnnGetErrorString of the loaded
# libraries), so that a crash half-way keeps what came before. gpu-env-doctor decides what it means.
import ctypes
import json
import os
import sys
import threading
import time

MARK = "@@gpu-env-doctor-smoke@@ "
T0 = time.time()
LOCK = threading.Lock()


def ms():
    return int(round((time.time() - T0) * 1000))


def emit(step, **data):
    data["step"] = step
    data["ms"] = ms()
    line = MARK + json.dumps(data, default=str) + "\n"
    with LOCK:
        sys.stdout.write(line)
        sys.stdout.flush()


def mapped():
    """The CUDA libraries this process has mapped (/proc/self/maps): the files that really loaded."""
    out = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6:
                    p = parts[5].strip()
                    base = os.path.basename(p)
                    if ".so" in base and base.startswith(("libcudnn", "libcudart", "libcublas", "libcuda.", "libnvidia-ml")):
                        out.add(p)
    except OSError:
        pass
    return sorted(out)


plan = json.loads(sys.argv[1])
RTLD = getattr(os, "RTLD_GLOBAL", 0x100) | getattr(os, "RTLD_NOW", 2)
for path in plan["load"]:
    try:
        ctypes.CDLL(path, mode=RTLD)
    except OSError as e:
        emit("load", ok=False, file=path, error=str(e))
        sys.exit(3)
try:
    for name in ("cudart", "cudnn", "cublas"):
        if plan.get(name):
            ctypes.CDLL(plan[name], mode=RTLD)
    # dlopen(NULL): symbols from the global scope (preloads first), not from the files named above.
    GLOBAL = ctypes.CDLL(None, mode=RTLD)
    rt = dnn = GLOBAL
    blas = GLOBAL if plan.get("cublas") else None
except OSError as e:
    emit("load", ok=False, error=str(e))
    sys.exit(3)

size_t, c_int, c_void_p, byref = ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p, ctypes.byref
rt.cudaGetErrorName.restype = ctypes.c_char_p
rt.cudaGetErrorString.restype = ctypes.c_char_p
dnn.cudnnGetErrorString.restype = ctypes.c_char_p
dnn.cudnnGetVersion.restype = size_t
dnn.cudnnGetCudartVersion.restype = size_t
for name in ("cublasGetStatusName", "cublasGetStatusString"):
    if blas is not None and hasattr(blas, name):
        getattr(blas, name).restype = ctypes.c_char_p

v = c_int(0)
versions = {"cudnn": int(dnn.cudnnGetVersion()), "cudnnCudart": int(dnn.cudnnGetCudartVersion())}
if rt.cudaRuntimeGetVersion(byref(v)) == 0:
    versions["runtime"] = v.value
if rt.cudaDriverGetVersion(byref(v)) == 0:
    versions["driver"] = v.value
emit("load", ok=True, files=mapped(), versions=versions)

if plan.get("wait"):
    # Loaded while gpu-env-doctor was still reading the machine; the GPU is touched only once it says so (so
    # that its own nvidia-smi and process scan never see this process holding memory).
    if sys.stdin.readline().strip() != "go":
        sys.exit(0)


class CudaError(Exception):
    def __init__(self, call, code):
        Exception.__init__(self, call)
        self.info = {"call": call, "api": "cuda", "code": code, "name": rt.cudaGetErrorName(code).decode(), "text": rt.cudaGetErrorString(code).decode()}


class DnnError(Exception):
    def __init__(self, call, code):
        Exception.__init__(self, call)
        self.info = {"call": call, "api": "cudnn", "code": code, "name": dnn.cudnnGetErrorString(code).decode()}


def cuda(call, *args):
    rc = getattr(rt, call)(*args)
    if rc != 0:
        raise CudaError(call, rc)


def cudnn(call, *args):
    rc = getattr(dnn, call)(*args)
    if rc != 0:
        raise DnnError(call, rc)


def free_bytes():
    free, total = size_t(0), size_t(0)
    cuda("cudaMemGetInfo", byref(free), byref(total))
    return free.value, total.value


class Perf(ctypes.Structure):  # cudnnConvolutionFwdAlgoPerf_t (cuDNN 7 to 9)
    _fields_ = [("algo", c_int), ("status", c_int), ("time", ctypes.c_float), ("memory", size_t),
                ("determinism", c_int), ("mathType", c_int), ("reserved", c_int * 3)]


# The convolution: a ResNet-style 3x3 layer, float32, NCHW (N, C, H, W, K), small enough to run in a millisecond,
# large enough that trying every algorithm (FFT, Winograd) needs a realistic workspace; the tiny one is the last
# resort when even the tensors of the first do not fit.
REGULAR = (32, 64, 64, 64, 64)
TINY = (1, 8, 16, 16, 8)


def conv_attempt(h, shape, pick):
    """One convolution forward. pick: 'largest' (the workspace to try every algorithm) or 'smallest'."""
    n, c, hh, ww, k = shape
    x, y, w, cd = c_void_p(), c_void_p(), c_void_p(), c_void_p()
    ptrs = []
    out = {"shape": list(shape), "workspace": pick}
    try:
        cudnn("cudnnCreateTensorDescriptor", byref(x))
        cudnn("cudnnCreateTensorDescriptor", byref(y))
        cudnn("cudnnCreateFilterDescriptor", byref(w))
        cudnn("cudnnCreateConvolutionDescriptor", byref(cd))
        cudnn("cudnnSetTensor4dDescriptor", x, 0, 0, n, c, hh, ww)  # NCHW, float
        cudnn("cudnnSetFilter4dDescriptor", w, 0, 0, k, c, 3, 3)
        cudnn("cudnnSetConvolution2dDescriptor", cd, 1, 1, 1, 1, 1, 1, 1, 0)  # pad 1, stride 1, cross-correlation, float
        on, oc, oh, ow = c_int(), c_int(), c_int(), c_int()
        cudnn("cudnnGetConvolution2dForwardOutputDim", cd, x, w, byref(on), byref(oc), byref(oh), byref(ow))
        cudnn("cudnnSetTensor4dDescriptor", y, 0, 0, on, oc, oh, ow)
        perf, got = (Perf * 10)(), c_int(0)
        cudnn("cudnnGetConvolutionForwardAlgorithm_v7", h, x, w, cd, y, 10, byref(got), perf)
        usable = [p for p in perf[:got.value] if p.status == 0]
        if not usable:
            raise DnnError("cudnnGetConvolutionForwardAlgorithm_v7 (no usable algorithm)", perf[0].status if got.value else 3000)
        first = usable[0]
        ws = max(p.memory for p in usable) if pick == "largest" else min(p.memory for p in usable)
        algo = first.algo if pick == "largest" else min(usable, key=lambda p: p.memory).algo
        out.update(algo=algo, workspaceBytes=ws, algorithms=[[p.algo, p.memory] for p in usable])
        sizes = [n * c * hh * ww * 4, k * c * 9 * 4, on.value * oc.value * oh.value * ow.value * 4]
        out["tensorBytes"] = sum(sizes)
        for nbytes in sizes + [ws]:
            p = c_void_p()
            if nbytes == 0:
                ptrs.append(p)
                continue
            try:
                cuda("cudaMalloc", byref(p), size_t(nbytes))
            except CudaError as e:
                e.info["bytes"] = nbytes
                raise
            ptrs.append(p)
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        cudnn("cudnnConvolutionForward", h, byref(alpha), x, ptrs[0], w, ptrs[1], cd, algo, ptrs[3], size_t(ws), byref(beta), y, ptrs[2])
        cuda("cudaDeviceSynchronize")
        out["ok"] = True
    except (CudaError, DnnError) as e:
        out["ok"] = False
        out["error"] = e.info
    finally:
        for p in ptrs:
            if p.value:
                rt.cudaFree(p)
        for d, destroy in ((x, "cudnnDestroyTensorDescriptor"), (y, "cudnnDestroyTensorDescriptor"), (w, "cudnnDestroyFilterDescriptor"), (cd, "cudnnDestroyConvolutionDescriptor")):
            if d.value:
                getattr(dnn, destroy)(d)
    return out


def is_memory(err):
    return err is not None and (err.get("name") in ("cudaErrorMemoryAllocation", "CUDNN_STATUS_ALLOC_FAILED", "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED"))


def device(d):
    res = {"device": d}
    try:
        device_steps(d, res)
    except Exception as e:  # noqa: BLE001 - a missing symbol (an odd cuDNN build) is a fact to report, not a crash
        res["crash"] = "%s: %s" % (type(e).__name__, e)
    res["ms"] = ms()
    emit("device", **res)


def device_steps(d, res):
    try:
        cuda("cudaSetDevice", d)
        bus = ctypes.create_string_buffer(32)
        if rt.cudaDeviceGetPCIBusId(bus, 32, d) == 0:
            res["busId"] = bus.value.decode()
        cuda("cudaFree", c_void_p(0))  # creates the context
        res["contextMs"] = ms()
        res["freeBefore"], res["total"] = free_bytes()
        h = c_void_p()
        cudnn("cudnnCreate", byref(h))
        res["handle"] = True
        if blas is not None:
            bh = c_void_p()
            rc = blas.cublasCreate_v2(byref(bh))
            res["cublas"] = {"code": rc}
            if hasattr(blas, "cublasGetStatusName"):
                res["cublas"]["name"] = blas.cublasGetStatusName(rc).decode()
            if rc == 0:
                blas.cublasDestroy_v2(bh)
        attempts = []
        for shape, pick in ((REGULAR, "largest"), (REGULAR, "smallest"), (TINY, "smallest")):
            a = conv_attempt(h, shape, pick)
            attempts.append(a)
            if a["ok"] or not is_memory(a.get("error")):
                break
            # failed for memory: how much there is now, then a smaller try
            try:
                a["freeAtFailure"] = free_bytes()[0]
            except CudaError:
                pass
        res["conv"] = attempts
        res["freeAfter"] = free_bytes()[0]
        dnn.cudnnDestroy(h)
    except (CudaError, DnnError) as e:
        res["error"] = e.info
        try:
            res.setdefault("freeBefore", free_bytes()[0])
        except CudaError:
            pass


count = c_int(0)
rc = rt.cudaGetDeviceCount(byref(count))
if rc != 0:
    emit("devices", ok=False, error=CudaError("cudaGetDeviceCount", rc).info)
    sys.exit(4)
emit("devices", ok=True, count=count.value)
threads = [threading.Thread(target=device, args=(d,)) for d in range(count.value)]
for t in threads:
    t.start()
for t in threads:
    t.join()
emit("done", files=mapped())
# Leave without Python's and the CUDA runtime's clean-up (it tears the contexts down one by one): the kernel
# driver frees everything when the process ends, and gpu-env-doctor is waiting for that end.
os._exit(0)
