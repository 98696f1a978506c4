"""Prototype: can cuDNN initialise here, now, with these files? (standard library only, ctypes)

python3 cudnn_smoke.py --cudart FILE --cudnn FILE [--preload FILE ...] [--device N] [--workspace-limit MiB]
Prints one JSON object per step on stdout.
"""
import ctypes, json, sys, time, os

def out(**kw):
    sys.stdout.write(json.dumps(kw) + "\n"); sys.stdout.flush()

args = sys.argv[1:]
def opt(name, default=None, many=False):
    vals = [args[i + 1] for i, a in enumerate(args) if a == name and i + 1 < len(args)]
    return vals if many else (vals[-1] if vals else default)

t0 = time.time()
RTLD = os.RTLD_GLOBAL | os.RTLD_NOW
for p in opt("--preload", many=True):
    try:
        ctypes.CDLL(p, mode=RTLD); out(step="preload", file=p, ok=True)
    except OSError as e:
        out(step="preload", file=p, ok=False, error=str(e))
try:
    rt = ctypes.CDLL(opt("--cudart", "libcudart.so.13"), mode=RTLD)
    dnn = ctypes.CDLL(opt("--cudnn", "libcudnn.so.9"), mode=RTLD)
except OSError as e:
    out(step="load", ok=False, error=str(e)); sys.exit(3)
rt.cudaGetErrorName.restype = ctypes.c_char_p
rt.cudaGetErrorString.restype = ctypes.c_char_p
dnn.cudnnGetErrorString.restype = ctypes.c_char_p
dnn.cudnnGetVersion.restype = ctypes.c_size_t
dnn.cudnnGetCudartVersion.restype = ctypes.c_size_t

def cuda(name, *a):
    rc = getattr(rt, name)(*a)
    if rc != 0:
        out(step=name, ok=False, code=rc, name=rt.cudaGetErrorName(rc).decode(), error=rt.cudaGetErrorString(rc).decode())
        raise SystemExit(4)
def cudnn(name, *a):
    rc = getattr(dnn, name)(*a)
    if rc != 0:
        out(step=name, ok=False, code=rc, error=dnn.cudnnGetErrorString(rc).decode())
        raise SystemExit(5)

# which files really loaded
maps = set()
for line in open("/proc/self/maps"):
    p = line.split()[-1]
    if ".so" in p and ("cudnn" in p or "cudart" in p or "libcuda" in p or "cublas" in p):
        maps.add(p)
v = ctypes.c_int()
rt.cudaRuntimeGetVersion(ctypes.byref(v)); runtime = v.value
rt.cudaDriverGetVersion(ctypes.byref(v)); driver = v.value
out(step="versions", cudnn=dnn.cudnnGetVersion(), cudnnCudart=dnn.cudnnGetCudartVersion(), runtime=runtime, driver=driver)
n = ctypes.c_int()
cuda("cudaGetDeviceCount", ctypes.byref(n))
dev = int(opt("--device", "0"))
cuda("cudaSetDevice", dev)
free, total = ctypes.c_size_t(), ctypes.c_size_t()
cuda("cudaMemGetInfo", ctypes.byref(free), ctypes.byref(total))
out(step="context", devices=n.value, free=free.value, total=total.value, ms=round((time.time()-t0)*1000))
h = ctypes.c_void_p()
cudnn("cudnnCreate", ctypes.byref(h))
out(step="handle", ok=True, ms=round((time.time()-t0)*1000))
mk = lambda: ctypes.c_void_p()
x, y, w, c = mk(), mk(), mk(), mk()
N, C, H, W, K = 8, 16, 64, 64, 32
cudnn("cudnnCreateTensorDescriptor", ctypes.byref(x)); cudnn("cudnnCreateTensorDescriptor", ctypes.byref(y))
cudnn("cudnnCreateFilterDescriptor", ctypes.byref(w)); cudnn("cudnnCreateConvolutionDescriptor", ctypes.byref(c))
cudnn("cudnnSetTensor4dDescriptor", x, 0, 0, N, C, H, W)
cudnn("cudnnSetFilter4dDescriptor", w, 0, 0, K, C, 3, 3)
cudnn("cudnnSetConvolution2dDescriptor", c, 1, 1, 1, 1, 1, 1, 1, 0)
on, oc, oh, ow = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
cudnn("cudnnGetConvolution2dForwardOutputDim", c, x, w, ctypes.byref(on), ctypes.byref(oc), ctypes.byref(oh), ctypes.byref(ow))
cudnn("cudnnSetTensor4dDescriptor", y, 0, 0, on, oc, oh, ow)
class Perf(ctypes.Structure):
    _fields_ = [("algo", ctypes.c_int), ("status", ctypes.c_int), ("time", ctypes.c_float), ("memory", ctypes.c_size_t),
                ("determinism", ctypes.c_int), ("mathType", ctypes.c_int), ("reserved", ctypes.c_int * 3)]
perf = (Perf * 8)(); got = ctypes.c_int()
cudnn("cudnnGetConvolutionForwardAlgorithm_v7", h, x, w, c, y, 8, ctypes.byref(got), perf)
cands = [(p.algo, p.status, p.memory) for p in perf[:got.value]]
out(step="heuristic", candidates=cands)
algo, ws = next(((a, m) for a, s, m in cands if s == 0), (0, 0))
ptrs = []
def alloc(nbytes, what):
    p = ctypes.c_void_p()
    cuda("cudaMalloc", ctypes.byref(p), ctypes.c_size_t(max(nbytes, 256)))
    ptrs.append(p); return p
px = alloc(N*C*H*W*4, "x"); pw = alloc(K*C*9*4, "w"); py = alloc(on.value*oc.value*oh.value*ow.value*4, "y")
pws = alloc(ws, "workspace") if ws else ctypes.c_void_p()
alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
cudnn("cudnnConvolutionForward", h, ctypes.byref(alpha), x, px, w, pw, c, algo, pws, ctypes.c_size_t(ws), ctypes.byref(beta), y, py)
cuda("cudaDeviceSynchronize")
cuda("cudaMemGetInfo", ctypes.byref(free), ctypes.byref(total))
out(step="conv", ok=True, algo=algo, workspace=ws, free=free.value, ms=round((time.time()-t0)*1000), maps=sorted(maps))
# TF-style autotune: cudnnFindConvolutionForwardAlgorithm allocates its own workspace
perf2 = (Perf * 8)()
rc = dnn.cudnnFindConvolutionForwardAlgorithm(h, x, w, c, y, 8, ctypes.byref(got), perf2)
out(step="find", code=rc, error=dnn.cudnnGetErrorString(rc).decode(), results=[(p.algo, p.status, p.memory, round(p.time, 3)) for p in perf2[:got.value]], ms=round((time.time()-t0)*1000))
maps2 = sorted(l.split()[-1] for l in open("/proc/self/maps") if "cudnn" in l)
out(step="maps", files=sorted(set(maps2)))
