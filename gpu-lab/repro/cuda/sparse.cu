// A cuSPARSE handle.
#include <cstdio>
#include <cusparse.h>
int main() {
  cusparseHandle_t h;
  cusparseStatus_t s = cusparseCreate(&h);
  if (s != CUSPARSE_STATUS_SUCCESS) { fprintf(stderr, "cusparseCreate failed: %s\n", cusparseGetErrorString(s)); return 1; }
  printf("cusparse ready\n");
  return 0;
}
