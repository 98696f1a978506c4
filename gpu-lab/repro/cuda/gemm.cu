// SGEMM with cuBLAS (dynamically linked: needs libcublas and libcublasLt).
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
int main() {
  const int n = 1024; float *a, *c; float one = 1, zero = 0;
  cudaMalloc(&a, n * n * sizeof(float)); cudaMalloc(&c, n * n * sizeof(float));
  cublasHandle_t h;
  cublasStatus_t s = cublasCreate(&h);
  if (s != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublasCreate failed: %s (%s)\n", cublasGetStatusName(s), cublasGetStatusString(s)); return 1; }
  s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (s != CUBLAS_STATUS_SUCCESS || e != cudaSuccess) { fprintf(stderr, "sgemm failed: %s / %s\n", cublasGetStatusName(s), cudaGetErrorString(e)); return 1; }
  printf("sgemm %dx%d done\n", n, n);
  return 0;
}
