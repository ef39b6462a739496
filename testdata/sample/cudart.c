/* A stand-in for libcudart: a real ELF shared object with CUDA's soname and
 * symbol version node, so loader and ELF checks see what they would see in a
 * real image. Built with -nostdlib: it needs no libc from the image. */
#ifndef FAKE_CUDART_VERSION
#error "define FAKE_CUDART_VERSION (e.g. 12010)"
#endif

int cudaRuntimeGetVersion(int* version) {
    *version = FAKE_CUDART_VERSION;
    return 0;
}

int cudaGetDeviceCount(int* count) {
    *count = 0;
    return 100; /* cudaErrorNoDevice: there is no GPU at build time */
}
