# A torch process holding LIVE GiB in a live tensor and CACHED GiB freed but kept by the caching allocator.
import sys, time, torch
live, cached, secs = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
a = torch.empty(int(live * 2**30), dtype=torch.uint8, device="cuda")
b = torch.empty(int(cached * 2**30), dtype=torch.uint8, device="cuda"); del b
print("HOLDING torch", torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), flush=True)
time.sleep(secs)
