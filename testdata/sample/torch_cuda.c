/* A stand-in for torch/lib/libtorch_cuda.so: it calls into cuDNN and the CUDA
 * runtime, so the linker records DT_NEEDED libcudnn.so.8 and libcudart.so.12
 * (the latter with its symbol version, as real wheels do). */
extern unsigned long cudnnGetVersion(void);
extern int cudaRuntimeGetVersion(int* version);

int torch_cuda_versions(unsigned long* cudnn, int* cudart) {
    *cudnn = cudnnGetVersion();
    return cudaRuntimeGetVersion(cudart);
}
