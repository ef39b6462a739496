# cuvet framework smoke probe: shared prelude. cuvet prepends this to one
# framework's body and runs the result with the image's own interpreter inside
# the sandbox. The last stdout line "CUVET_SMOKE {json}" is the result; the
# framework's own messages stay on stderr, where cuvet reads its error texts.
import json
import os
import re
import sys
import traceback

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # the probe needs megabytes, not 75% of the GPU
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "0")  # XLA's INFO lines name the cuDNN it loaded
# Caches go to the sandbox's private /tmp: the image's tree is read-only there.
os.environ.setdefault("CUPY_CACHE_DIR", "/tmp/cuvet-cache/cupy")
os.environ.setdefault("CUDA_CACHE_PATH", "/tmp/cuvet-cache/nv")

R = {"schema": 1, "verdict": "error", "stage": "start"}
_CUDA_LIB = re.compile(
    r"lib(cuda|cudart|cudnn[a-z_]*|cublas|cublasLt|nvrtc[a-z-]*|nvJitLink|cufft|curand|cusolver|"
    r"cusparse|nccl|cupti|nvinfer|onnxruntime_providers_[a-z]+|xla_cuda_plugin|nvidia-ptxjitcompiler)"
    r"(\.so[.0-9]*|[-.].*\.so.*)$")


def loaded_libraries():
    """CUDA-related shared objects really mapped into this process."""
    seen = []
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) < 6:
                    continue
                path = fields[5].strip()
                if path.startswith("/") and _CUDA_LIB.match(os.path.basename(path)) and path not in seen:
                    seen.append(path)
    except OSError as error:
        R["maps_error"] = str(error)
    return sorted(seen)


def reference_conv(x, w):
    """Plain numpy NCHW/OIHW 'valid' convolution: the CPU answer every framework is compared with."""
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
    windows = sliding_window_view(x, w.shape[2:], axis=(2, 3))  # N C H' W' kh kw
    return np.einsum("nchwij,ocij->nohw", windows, w, optimize=True).astype(np.float32)


def inputs():
    import numpy as np
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 4, 12, 12)).astype(np.float32)
    w = rng.standard_normal((8, 4, 3, 3)).astype(np.float32)
    return x, w


def compare(got, want, tolerance=1e-2):
    import numpy as np
    err = float(np.max(np.abs(np.asarray(got, dtype=np.float32) - want)))
    R["max_abs_err"] = err
    return err <= tolerance


def finish():
    R["loaded"] = loaded_libraries()
    sys.stdout.flush()
    sys.stderr.flush()
    print("CUVET_SMOKE " + json.dumps(R, sort_keys=True), flush=True)


def fail(stage, error):
    R["stage"] = stage
    R["verdict"] = "error"
    R["error"] = "%s: %s" % (type(error).__name__, error)
    traceback.print_exc()


def run(probe):
    """Runs one framework's probe() and prints the result line, whatever happens."""
    try:
        probe()
    except BaseException as error:
        fail(R["stage"], error)
    finish()
