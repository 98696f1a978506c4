# CuPy loads a module image (a cubin or PTX file, argv[1]) through the driver (cuModuleLoadData) and launches "k".
import sys
import cupy as cp
print(f"[job] cupy {cp.__version__} loading {sys.argv[1].rsplit('/', 1)[-1]}", flush=True)
mode = sys.argv[2] if len(sys.argv) > 2 else "data"
if mode == "file":
    mod = cp.RawModule(path=sys.argv[1])
    f = mod.get_function("k")
else:
    m = cp.cuda.function.Module()
    with open(sys.argv[1], "rb") as fh:
        m.load(fh.read())
    f = m.get_function("k")
x = cp.zeros((1,), cp.int32)
f((1,), (1,), (x,))
cp.cuda.Device().synchronize()
print("JOB-OK", int(x[0]), flush=True)
