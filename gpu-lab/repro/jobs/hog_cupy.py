# A CuPy process holding all GPU memory but KEEP_MIB (argv[1]) for SECONDS (argv[2]).
import sys, time, cupy as cp
free, total = cp.cuda.runtime.memGetInfo()
x = cp.empty((free - int(sys.argv[1]) * 2**20,), cp.uint8)
print("HOLDING", sys.argv[1], flush=True)
time.sleep(float(sys.argv[2]))
