# The user's path: a convolution on the GPU, nothing asked before it. Prints one result line.
import torch
x = torch.randn(8, 16, 64, 64, device="cuda")
w = torch.randn(32, 16, 3, 3, device="cuda")
y = torch.nn.functional.conv2d(x, w, padding=1)
torch.cuda.synchronize()
print("JOB-OK torch conv", tuple(y.shape))
