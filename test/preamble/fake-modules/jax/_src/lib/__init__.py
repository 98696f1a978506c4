class cuda_versions:
    @staticmethod
    def cuda_runtime_get_version():
        return 13000

    @staticmethod
    def cudnn_get_version():
        return 91900
