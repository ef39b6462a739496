_KERNEL = r'''
extern "C" __global__ void scale_add(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}
'''


def probe():
    R["framework"] = "cupy"
    R["stage"] = "import"
    import cupy
    import numpy as np
    R["version"] = cupy.__version__
    R["stage"] = "device"
    R["gpu_available"] = cupy.cuda.runtime.getDeviceCount() > 0
    R["cuda_runtime"] = cupy.cuda.runtime.runtimeGetVersion()
    R["cuda_driver"] = cupy.cuda.runtime.driverGetVersion()
    R["stage"] = "kernel"  # NVRTC compiles the kernel at run time
    kernel = cupy.RawKernel(_KERNEL, "scale_add")
    x = cupy.arange(1024, dtype=cupy.float32)
    y = cupy.empty_like(x)
    kernel((4,), (256,), (x, y, cupy.int32(1024)))
    cupy.cuda.Device().synchronize()
    want = 2.0 * np.arange(1024, dtype=np.float32) + 1.0
    R["max_abs_err"] = float(np.max(np.abs(cupy.asnumpy(y) - want)))
    R["stage"] = "conv"
    xi, wi = inputs()
    out = cupy.asnumpy(_conv(cupy, cupy.asarray(xi), cupy.asarray(wi)))
    good = R["max_abs_err"] == 0.0 and compare(out, reference_conv(xi, wi))
    R["verdict"] = "ok" if good else "wrong_result"
    R["stage"] = "done"


def _conv(cupy, x, w):
    # im2col + matmul on the GPU (cuBLAS): one convolution without cuDNN
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    cols = cupy.stack([x[:, :, i:i + h - kh + 1, j:j + wd - kw + 1] for i in range(kh) for j in range(kw)], axis=2)
    cols = cols.reshape(n, c * kh * kw, (h - kh + 1) * (wd - kw + 1))
    wm = w.reshape(o, c, kh * kw).reshape(o, c * kh * kw)
    return (wm @ cols).reshape(n, o, h - kh + 1, wd - kw + 1)


run(probe)
