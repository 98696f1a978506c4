# PyTorch's caching allocator fragmented on purpose: fill the GPU (or the fraction allowed, argv[4]) with segments
# of SEG GiB, fill what the driver has left with 64 MiB pieces, free the segments and re-use KEEP GiB of each
# (the allocator splits them, the rest stays reserved but unallocated in every segment), then ask for ASK GiB:
# more than any free piece, while the free pieces together are many times ASK. argv: SEG KEEP ASK [FRACTION [DTYPE [HOW]]]
import sys
seg, keep, ask = (float(a) for a in sys.argv[1:4])
frac = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
dt = sys.argv[5] if len(sys.argv) > 5 else "float32"
how = sys.argv[6] if len(sys.argv) > 6 else "empty"
import torch
dtype = getattr(torch, dt)
es = torch.empty(0, dtype=dtype).element_size()


def n(gib):
    return int(gib * 2**30) // es


print(f"[job] torch {torch.__version__} training step with activations of {keep:g} GiB per micro-batch", flush=True)
if frac:
    torch.cuda.set_per_process_memory_fraction(frac)
big = []
try:
    while True:
        big.append(torch.empty(n(seg), dtype=dtype, device="cuda"))
except torch.OutOfMemoryError:
    pass
small = []
try:
    while True:
        small.append(torch.empty(n(1 / 16), dtype=dtype, device="cuda"))
except torch.OutOfMemoryError:
    pass
count = len(big)
big.clear()
held = [torch.empty(n(keep), dtype=dtype, device="cuda") for _ in range(count)]
print(f"step 1: {count} micro-batches live, allocated {torch.cuda.memory_allocated() / 2**30:.2f} GiB, "
      f"reserved {torch.cuda.memory_reserved() / 2**30:.2f} GiB", flush=True)
if how == "cat":
    y = torch.cat([held[0][: n(ask) // 2], held[1][: n(ask) - n(ask) // 2]])
elif how == "randn":
    y = torch.randn(n(ask), dtype=dtype, device="cuda")
elif how == "matmul":
    k = int(n(ask) ** 0.5)
    y = held[0][: k * 8].view(k, 8) @ held[1][: k * 8].view(8, k)
else:
    y = torch.empty(n(ask), dtype=dtype, device="cuda")
torch.cuda.synchronize()
print("JOB-OK", tuple(y.shape), flush=True)
