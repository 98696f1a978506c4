# A job that needs GIB GiB at once (argv[1]): a 'too big by itself' job, or one that fits without the holder.
import sys, torch
gib = float(sys.argv[1])
x = torch.empty(int(gib * 2**30), dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
print("JOB-OK torch allocated", gib, "GiB")
