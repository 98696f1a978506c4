# A stand-in for TensorFlow that, like the real one, refuses set_memory_growth once an op has run.
# CALLS records the order of calls, so a test can see memory growth set before the first op.
__version__ = "2.20.0"
CALLS = []
_initialized = [False]


class PhysicalDevice:
    def __init__(self, name, device_type):
        self.name, self.device_type = name, device_type


class _experimental:
    @staticmethod
    def set_memory_growth(device, enable):
        if _initialized[0]:
            raise RuntimeError("Physical devices cannot be modified after being initialized")
        CALLS.append("set_memory_growth(%s, %s)" % (device.name, enable))

    @staticmethod
    def get_device_details(device):
        return {"device_name": "NVIDIA H200", "compute_capability": (9, 0)}


class config:
    experimental = _experimental

    @staticmethod
    def list_physical_devices(kind=None):
        CALLS.append("list_physical_devices(%s)" % kind)
        return [PhysicalDevice("/physical_device:GPU:0", "GPU")]


class sysconfig:
    @staticmethod
    def get_build_info():
        return {"cuda_version": "12.5.1", "cudnn_version": "9", "is_cuda_build": True}


class test:
    @staticmethod
    def is_built_with_cuda():
        return True


def constant(v):
    _initialized[0] = True
    CALLS.append("op")
    return v
