# A CuPy job: OP (argv[1]) at SIZE (argv[2]) in DTYPE (argv[3]).
import sys
op = sys.argv[1]
size = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
dt = sys.argv[3] if len(sys.argv) > 3 else "float32"
import numpy as np
import cupy as cp
print(f"[job] cupy {cp.__version__} op={op} size={size:g} dtype={dt}", flush=True)
dtype = np.dtype(dt)
GIB = 2**30


def elems(gib):
    return int(gib * GIB) // dtype.itemsize


if op == "alloc":
    y = cp.empty((elems(size),), dtype)
elif op == "zeros":
    y = cp.zeros((elems(size),), dtype)
elif op == "matmul":
    n = int(elems(size) ** 0.5)
    a = cp.random.random((n, n)).astype(dtype)
    y = a @ a
elif op == "fft":
    y = cp.fft.fft(cp.ones((elems(size) // 2,), cp.complex64))
elif op == "elementwise":
    y = cp.arange(elems(size), dtype=dtype) * 2 + 1
elif op == "init":
    y = cp.ones((4,), dtype)
else:
    raise SystemExit(f"unknown op {op}")
cp.cuda.Device().synchronize()
print("JOB-OK", y.shape, flush=True)
