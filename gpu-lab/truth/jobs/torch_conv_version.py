# A convolution, then what many training scripts log first: the cuDNN version (it runs torch's version check).
import torch
x = torch.randn(8, 16, 64, 64, device="cuda")
w = torch.randn(32, 16, 3, 3, device="cuda")
y = torch.nn.functional.conv2d(x, w, padding=1)
torch.cuda.synchronize()
print("JOB-OK torch conv", tuple(y.shape), "cudnn", torch.backends.cudnn.version())
