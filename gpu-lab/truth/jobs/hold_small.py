# A holder of GIB GiB (argv[1]) for SECONDS (argv[2]) that says who it is: its PID and uid (run as another user).
import os, sys, time, torch
x = torch.empty(int(float(sys.argv[1]) * 2**30), dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
print("HOLDING small PID", os.getpid(), "uid", os.getuid(), flush=True)
time.sleep(float(sys.argv[2]))
