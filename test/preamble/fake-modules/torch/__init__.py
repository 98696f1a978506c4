# A stand-in for torch with the values the real torch 2.11.0+cu130 reported on the H200
# (test/fixtures/h200/idle/torch-info.txt). FAKE_TORCH_CPU=1 makes it a CPU-only build.
import os

__version__ = "2.11.0+cu130"
_cpu = os.environ.get("FAKE_TORCH_CPU") == "1"


class version:
    cuda = None if _cpu else "13.0"


class _cudnn:
    @staticmethod
    def version():
        return None if _cpu else 91900


class backends:
    cudnn = _cudnn


class cuda:
    @staticmethod
    def is_available():
        return not _cpu

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def get_device_capability(i):
        return (9, 0)

    @staticmethod
    def get_device_name(i):
        return "NVIDIA H200"

    @staticmethod
    def mem_get_info(i):
        return (149557477376, 150109880320)

    @staticmethod
    def get_arch_list():
        return ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
