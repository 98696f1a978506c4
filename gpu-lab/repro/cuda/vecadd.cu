// Vector addition with the error check of the CUDA samples (file:line, code, name, call).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
static void check(cudaError_t r, const char *call, const char *file, int line) {
  if (r) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)r, cudaGetErrorName(r), call);
    exit(EXIT_FAILURE);
  }
}
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 1 << 20;
  float *a, *b, *c;
  printf("[Vector addition of %d elements]\n", n);
  checkCudaErrors(cudaMalloc(&a, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&b, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&c, n * sizeof(float)));
  add<<<(n + 255) / 256, 256>>>(a, b, c, n);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());
  printf("Test PASSED\n");
  return 0;
}
