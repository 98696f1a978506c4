# A holder of GPU memory (PyTorch): for each line KEEP_MIB read on stdin, it frees what it held and holds all but
# KEEP_MIB again, then prints "HOLDING KEEP_MIB". It ends at end of input.
import sys, torch
x = None
for line in sys.stdin:
    keep = int(line)
    x = None
    torch.cuda.empty_cache()
    free, total = torch.cuda.mem_get_info()
    x = torch.empty(max(free - keep * 2**20, 0), dtype=torch.uint8, device="cuda")
    print("HOLDING", keep, f"{x.numel() / 2**30:.2f} GiB", flush=True)
