# A fake torch for the dry run of gpu-lab/never-harm.sh: "GPU memory" is an open /dev/nvidia0
import time, os
_held = []
class T:
    def __init__(self): _held.append(open('/dev/nvidia0'))
    def __matmul__(self, o): return T.__new__(T)
    def sum(self): return self
    def item(self): return 1.0
def empty(*a, **k): return T()
def randn(*a, **k): return T()
uint8 = 'uint8'
class _Ev:
    def __init__(self, blocking=False): pass
    def record(self): pass
    def synchronize(self): time.sleep(0.5)
class cuda:
    Event = _Ev
