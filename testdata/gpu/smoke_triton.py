# Triton's own path, as torch.compile takes it: a @triton.jit vector add.
# Triton compiles its launcher stub with the image's C compiler, the kernel with
# its bundled ptxas (triton/backends/nvidia/bin, or TRITON_PTXAS_PATH), and
# loads its bundled cupti only for profiling. framework_variants.sh appends this
# to src/frameworks/smoke/common.py; the test harness only (not a product probe).
def probe():
    R["framework"] = "triton"
    R["stage"] = "import"
    import torch
    import triton
    import triton.language as tl
    R["version"] = triton.__version__
    R["stage"] = "device"
    R["gpu_available"] = torch.cuda.is_available()
    if not R["gpu_available"]:
        R["verdict"] = "cpu_fallback"
        return

    @triton.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)

    R["stage"] = "compile"
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    out = torch.empty_like(x)
    add[(4,)](x, x, out, 1000, BLOCK=256)
    torch.cuda.synchronize()
    R["verdict"] = "ok" if bool((out == 2 * x).all()) else "wrong_result"
    R["stage"] = "done"


run(probe)
