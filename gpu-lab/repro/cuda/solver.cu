// A cuSOLVER dense handle.
#include <cstdio>
#include <cusolverDn.h>
int main() {
  cusolverDnHandle_t h;
  cusolverStatus_t s = cusolverDnCreate(&h);
  if (s != CUSOLVER_STATUS_SUCCESS) { fprintf(stderr, "cusolverDnCreate failed: %d\n", (int)s); return 1; }
  printf("cusolver ready\n");
  return 0;
}
