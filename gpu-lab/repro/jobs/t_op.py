# A PyTorch job as a training script would run it: OP (argv[1]) at SIZE (argv[2]) in DTYPE (argv[3]) on the GPU.
# Extra words: cudnn-version (log torch.backends.cudnn.version() first, as many scripts do), train (backward too).
import sys
op = sys.argv[1]
size = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
dt = sys.argv[3] if len(sys.argv) > 3 else "float32"
flags = set(sys.argv[4:])
import torch
import torch.nn.functional as F
dtype = getattr(torch, dt)
dev = "cuda"
GIB = 2**30
print(f"[job] torch {torch.__version__} cuda {torch.version.cuda} op={op} size={size:g} dtype={dt}", flush=True)
if "cudnn-version" in flags:
    print("cudnn version:", torch.backends.cudnn.version(), flush=True)
if "benchmark" in flags:
    torch.backends.cudnn.benchmark = True


def elems(gib):
    return int(gib * GIB) // torch.empty(0, dtype=dtype).element_size()


if op == "alloc":  # one tensor of SIZE GiB
    y = torch.empty(elems(size), dtype=dtype, device=dev)
elif op == "zeros":
    y = torch.zeros(elems(size), dtype=dtype, device=dev)
elif op == "matmul":  # two square operands of SIZE GiB each
    n = int(elems(size) ** 0.5)
    a = torch.randn(n, n, dtype=dtype, device=dev)
    b = torch.randn(n, n, dtype=dtype, device=dev)
    y = a @ b
elif op == "conv2d":  # a batch of SIZE images 3x224x224 through a 7x7 stem
    x = torch.randn(int(size), 3, 224, 224, dtype=dtype, device=dev)
    w = torch.randn(64, 3, 7, 7, dtype=dtype, device=dev)
    y = F.conv2d(x, w, stride=2, padding=3)
elif op == "conv1d":  # SIZE sequences of 16000 samples (audio) through a 1-D conv
    x = torch.randn(int(size), 1, 16000, dtype=dtype, device=dev)
    w = torch.randn(256, 1, 400, dtype=dtype, device=dev)
    y = F.conv1d(x, w, stride=160)
elif op == "conv3d":  # SIZE clips of 16x112x112
    x = torch.randn(int(size), 3, 16, 112, 112, dtype=dtype, device=dev)
    w = torch.randn(64, 3, 3, 7, 7, dtype=dtype, device=dev)
    y = F.conv3d(x, w, stride=(1, 2, 2), padding=(1, 3, 3))
elif op == "lstm":  # an LSTM with hidden size SIZE over 128 steps
    m = torch.nn.LSTM(256, int(size), num_layers=2, batch_first=True).to(dev, dtype)
    x = torch.randn(32, 128, 256, dtype=dtype, device=dev)
    y, _ = m(x)
elif op == "gru":
    m = torch.nn.GRU(128, int(size), batch_first=True).to(dev, dtype)
    y, _ = m(torch.randn(16, 64, 128, dtype=dtype, device=dev))
elif op == "resnet":  # a ResNet-50 forward (and backward with train) on a batch of SIZE
    import torchvision
    m = torchvision.models.resnet50().to(dev, dtype)
    x = torch.randn(int(size), 3, 224, 224, dtype=dtype, device=dev)
    y = m(x)
    if "train" in flags:
        y.float().sum().backward()
elif op == "mlp":  # 4 linear layers of width SIZE, forward and backward
    m = torch.nn.Sequential(*[torch.nn.Linear(int(size), int(size), device=dev, dtype=dtype) for _ in range(4)])
    y = m(torch.randn(64, int(size), dtype=dtype, device=dev))
    y.float().sum().backward()
elif op == "embedding":  # a table of SIZE million rows of 1024
    m = torch.nn.Embedding(int(size * 1e6), 1024, device=dev, dtype=dtype)
    y = m(torch.randint(0, 1000, (8, 512), device=dev))
elif op == "attention":  # scores of one head over SIZE tokens, materialised
    q = torch.randn(1, int(size), 64, dtype=dtype, device=dev)
    k = torch.randn(1, int(size), 64, dtype=dtype, device=dev)
    y = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
elif op == "sdpa":  # scaled_dot_product_attention, batch SIZE, 16 heads, 4096 tokens
    q = torch.randn(int(size), 16, 4096, 64, dtype=dtype, device=dev)
    y = F.scaled_dot_product_attention(q, q, q)
elif op == "batchnorm":
    x = torch.randn(int(size), 64, 56, 56, dtype=dtype, device=dev)
    y = torch.nn.BatchNorm2d(64).to(dev, dtype)(x)
elif op == "init":  # only the first CUDA call
    y = torch.ones(1, device=dev)
else:
    raise SystemExit(f"unknown op {op}")
torch.cuda.synchronize()
print("JOB-OK", tuple(y.shape), flush=True)
