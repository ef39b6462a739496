/* A stand-in for libcudnn.so.8: the version it reports is set at compile time
 * so that two copies of different versions can live in one sample image. */
#ifndef FAKE_CUDNN_VERSION
#error "define FAKE_CUDNN_VERSION (e.g. 8902) and FAKE_CUDNN_CUDART_VERSION"
#endif

unsigned long cudnnGetVersion(void) { return FAKE_CUDNN_VERSION; }
unsigned long cudnnGetCudartVersion(void) { return FAKE_CUDNN_CUDART_VERSION; }
