# The smallest torch job: import, then one tensor on the GPU.
import torch
print("JOB-OK torch", torch.zeros(1, device="cuda").device)
