# A PyTorch training step whose data is wrong, not its GPU: an index or a value outside what the operation accepts
# trips a device-side assertion in the CUDA kernel ("CUDA error: device-side assert triggered"). argv: CASE.
import sys
case = sys.argv[1]
import torch
import torch.nn.functional as F
dev = "cuda"
torch.manual_seed(0)
print(f"[job] torch {torch.__version__} cuda {torch.version.cuda} case={case}", flush=True)
n, c = 64, 10
logits = torch.randn(n, c, device=dev, requires_grad=True)
if case == "ce-label-too-big":  # class ids 1..C (one past the last class)
    loss = F.cross_entropy(logits, torch.randint(1, c + 1, (n,), device=dev))
elif case == "ce-label-negative":  # -1 as a missing label, not the ignore_index (-100)
    t = torch.randint(0, c, (n,), device=dev); t[::7] = -1
    loss = F.cross_entropy(logits, t)
elif case == "ce-half":
    loss = F.cross_entropy(logits.half(), torch.full((n,), c, device=dev))
elif case == "nll-weight":
    loss = F.nll_loss(F.log_softmax(logits, 1), torch.full((n,), c + 3, device=dev), weight=torch.ones(c, device=dev))
elif case == "seg-255":  # a segmentation mask with 255 for "void" without ignore_index=255
    x = torch.randn(4, c, 32, 32, device=dev, requires_grad=True)
    t = torch.randint(0, c, (4, 32, 32), device=dev); t[:, :4, :4] = 255
    loss = F.cross_entropy(x, t)
elif case == "embedding":  # a token id past the vocabulary
    emb = torch.nn.Embedding(1000, 64).to(dev)
    loss = emb(torch.randint(0, 1001, (n, 128), device=dev).clamp(min=999)).sum()
elif case == "index-select":
    loss = torch.index_select(logits, 0, torch.tensor([0, n + 5], device=dev)).sum()
elif case == "gather":
    loss = torch.gather(logits, 1, torch.full((n, 1), c + 1, device=dev)).sum()
elif case == "scatter-add":
    loss = torch.zeros(n, c, device=dev).scatter_add(1, torch.full((n, 1), c, device=dev), logits).sum()
elif case == "bce-range":  # probabilities expected, raw scores given (no sigmoid)
    loss = F.binary_cross_entropy(logits * 3, torch.rand(n, c, device=dev))
elif case == "multinomial":  # negative "probabilities"
    loss = torch.multinomial(torch.randn(n, c, device=dev), 1).float().sum()
else:
    sys.exit(f"unknown case {case}")
loss.backward() if loss.requires_grad else None
torch.cuda.synchronize()
print("JOB-OK", float(loss), flush=True)
