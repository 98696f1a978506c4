# Holds all GPU memory but KEEP MiB (argv[1]) for SECONDS (argv[2]), as test/fixtures/h200/hog.py.
import sys, time, torch
free, total = torch.cuda.mem_get_info()
x = torch.empty(free - int(sys.argv[1]) * 2**20, dtype=torch.uint8, device="cuda")
print("HOLDING hog", (free - int(sys.argv[1]) * 2**20) / 2**30, "GiB", flush=True)
time.sleep(float(sys.argv[2]))
