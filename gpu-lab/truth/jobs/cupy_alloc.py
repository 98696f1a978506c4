# CuPy's smallest job: one array of MIB MiB (argv[1]) on the GPU.
import sys, cupy
x = cupy.zeros(int(float(sys.argv[1]) * 2**20), dtype=cupy.uint8)
cupy.cuda.runtime.deviceSynchronize()
print("JOB-OK cupy allocated", sys.argv[1], "MiB")
