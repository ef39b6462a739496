// cuvet-probe: loads the image's own CUDA runtime and cuDNN with dlopen(),
// reports versions and the GPU, and runs a small convolution checked against
// a CPU reference. One JSON object on stdout; see README "GPU probe".
//
// Exit codes: 0 ok (or self-test done), 2 usage, 4 the probe's own reference
// is broken, 10 no device, 11 a library failed to load, 12 CUDA/cuDNN
// initialisation failed, 13 the convolution failed to run, 14 wrong result.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "cuda_api.hpp"
#include "gpu_conv.hpp"
#include "json_out.hpp"

namespace cuvet::probe {
namespace {

struct Options {
    bool self_test = false;
    bool half = true;
    int device = 0;
    std::string libcuda = "libcuda.so.1";
    std::vector<std::string> preload;
    std::vector<std::string> cudart;
    std::vector<std::string> cudnn;
};

struct Verdict {
    const char* name;
    int exit_code;
};
constexpr Verdict verdict_ok{"ok", 0};
constexpr Verdict verdict_no_device{"no_device", 10};
constexpr Verdict verdict_load_failed{"load_failed", 11};
constexpr Verdict verdict_init_failed{"init_failed", 12};
constexpr Verdict verdict_conv_failed{"conv_failed", 13};
constexpr Verdict verdict_conv_mismatch{"conv_mismatch", 14};

void usage() {
    std::fprintf(stderr,
                 "usage: cuvet-probe [--self-test] [--device N] [--no-half] [--libcuda NAME]\n"
                 "                   [--preload LIB]... [--cudart LIB]... [--cudnn LIB]...\n"
                 "LIB is a path (loaded as is) or a soname (searched the dynamic loader's way).\n");
}

bool parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        std::string text;
        if (arg == "--self-test") {
            options.self_test = true;
        } else if (arg == "--no-half") {
            options.half = false;
        } else if (arg == "--device" && value(text)) {
            options.device = std::atoi(text.c_str());
        } else if (arg == "--libcuda" && value(text)) {
            options.libcuda = text;
        } else if (arg == "--preload" && value(text)) {
            options.preload.push_back(text);
        } else if (arg == "--cudart" && value(text)) {
            options.cudart.push_back(text);
        } else if (arg == "--cudnn" && value(text)) {
            options.cudnn.push_back(text);
        } else {
            return false;
        }
    }
    if (options.cudart.empty())
        options.cudart = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};
    if (options.cudnn.empty()) options.cudnn = {"libcudnn.so.9", "libcudnn.so.8"};
    return true;
}

// Progress goes to stderr so that a probe that crashes or hangs inside a
// library still tells the runner where it was.
void stage(const char* name) { std::fprintf(stderr, "cuvet-probe: %s\n", name); }

class Probe {
public:
    explicit Probe(const Options& options) : options_(options) {}

    Verdict run() {
        json_.field("probe", "cuvet-probe")
            .field("schema", 1)
            .field("mode", options_.self_test ? "self-test" : "check");
        const bool reference_ok = reference_self_check();
        json_.field("reference_self_check", reference_ok);
        if (!reference_ok) {
            error("reference_self_check", "failed",
                  "the probe's CPU reference is wrong (probe build defect)");
            return {"probe_defect", 4};
        }
        const Verdict driver = check_driver();
        if (options_.self_test)
            return driver.exit_code == verdict_no_device.exit_code ? Verdict{"no_device", 0}
                                                                   : driver;
        if (driver.exit_code != 0) return driver;
        for (const std::string& name : options_.preload) {
            if (!load("preload", {name})) return verdict_load_failed;
        }
        const Verdict runtime = check_runtime();
        if (runtime.exit_code != 0) return runtime;
        return check_cudnn();
    }

    std::string finish(const Verdict& verdict) {
        json_.begin_array("libraries");
        for (const DynLib& lib : libs_) {
            json_.begin_object()
                .field("role", lib.role)
                .field("requested", lib.requested)
                .field("loaded", lib.loaded())
                .field("path", lib.path)
                .field("error", lib.error);
            json_.begin_array("missing_symbols");
            for (const std::string& symbol : lib.missing) json_.value(symbol);
            json_.end_array().end_object();
        }
        json_.end_array();
        json_.begin_array("loaded_objects");
        for (const std::string& name : loaded_gpu_objects()) json_.value(name);
        json_.end_array();
        json_.begin_array("errors");
        for (const std::string& entry : errors_) json_.value(entry);
        json_.end_array();
        json_.field("verdict", verdict.name).field("exit_code", verdict.exit_code);
        return "{" + json_.str() + "}\n";
    }

private:
    void error(const std::string& stage_name, const std::string& status,
               const std::string& message) {
        errors_.push_back(stage_name + ": " + status +
                          (message.empty() ? "" : " (" + message + ")"));
    }

    DynLib* load(const char* role, const std::vector<std::string>& candidates) {
        stage((std::string("dlopen ") + role).c_str());
        libs_.push_back(open_library(role, candidates, true));
        DynLib& lib = libs_.back();
        if (!lib.loaded()) {
            error(std::string("dlopen ") + role, "failed", lib.error);
            return nullptr;
        }
        return &lib;
    }

    Verdict check_driver() {
        json_.begin_object("driver");
        const Verdict verdict = driver_details();
        json_.end_object();
        return verdict;
    }

    Verdict driver_details() {
        DynLib* lib = load("libcuda", {options_.libcuda});
        if (lib == nullptr) {
            json_.field("reason", "libcuda not found: the container runtime injected no driver");
            return verdict_no_device;
        }
        if (!driver_.bind(*lib)) {
            error("dlsym libcuda", "missing symbols", lib->path);
            return verdict_load_failed;
        }
        int version = 0;
        if (driver_.cuDriverGetVersion(&version) == abi::CUDA_SUCCESS)
            json_.field("version", version);
        stage("cuInit");
        const abi::CUresult init = driver_.cuInit(0);
        json_.field("cuInit", driver_.name(init));
        if (init != abi::CUDA_SUCCESS) {
            error("cuInit", driver_.name(init), "");
            return verdict_no_device;
        }
        int count = 0;
        const abi::CUresult counted = driver_.cuDeviceGetCount(&count);
        json_.field("device_count", count);
        if (counted != abi::CUDA_SUCCESS || count == 0) {
            error("cuDeviceGetCount", driver_.name(counted), "no GPU visible");
            return verdict_no_device;
        }
        if (options_.device < 0 || options_.device >= count) {
            error("cuDeviceGet", "out of range", "device " + std::to_string(options_.device));
            return verdict_no_device;
        }
        abi::CUdevice device = 0;
        driver_.cuDeviceGet(&device, options_.device);
        char name[256] = {};
        driver_.cuDeviceGetName(name, sizeof name - 1, device);
        driver_.cuDeviceGetAttribute(&major_, abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                     device);
        int minor = 0;
        driver_.cuDeviceGetAttribute(&minor, abi::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                     device);
        std::size_t memory = 0;
        driver_.cuDeviceTotalMem(&memory, device);
        json_.begin_object("device")
            .field("index", options_.device)
            .field("name", name)
            .field("compute_capability", std::to_string(major_) + "." + std::to_string(minor))
            .field("total_memory", memory)
            .end_object();
        return verdict_ok;
    }

    Verdict check_runtime() {
        json_.begin_object("runtime");
        const Verdict verdict = runtime_details();
        json_.end_object();
        return verdict;
    }

    Verdict runtime_details() {
        DynLib* lib = load("cudart", options_.cudart);
        if (lib == nullptr) return verdict_load_failed;
        if (!runtime_.bind(*lib)) {
            error("dlsym cudart", "missing symbols", lib->path);
            return verdict_load_failed;
        }
        int version = 0;
        json_.field("status", runtime_.name(runtime_.cudaRuntimeGetVersion(&version)));
        json_.field("version", version);
        int driver_version = 0;
        runtime_.cudaDriverGetVersion(&driver_version);
        json_.field("driver_version", driver_version);
        stage("cudaSetDevice");
        // The first runtime call that needs a context reports what is wrong
        // with the pairing (cudaErrorInsufficientDriver, no kernel image…).
        int count = 0;
        const abi::cudaError_t counted = runtime_.cudaGetDeviceCount(&count);
        json_.field("cudaGetDeviceCount", runtime_.name(counted));
        if (counted != abi::cudaSuccess) {
            error("cudaGetDeviceCount", runtime_.name(counted),
                  runtime_.cudaGetErrorString(counted));
            return verdict_init_failed;
        }
        const abi::cudaError_t set = runtime_.cudaSetDevice(options_.device);
        json_.field("cudaSetDevice", runtime_.name(set));
        if (set != abi::cudaSuccess) {
            error("cudaSetDevice", runtime_.name(set), runtime_.cudaGetErrorString(set));
            return verdict_init_failed;
        }
        return verdict_ok;
    }

    Verdict check_cudnn() {
        json_.begin_object("cudnn");
        abi::cudnnHandle_t handle = nullptr;
        Verdict verdict = cudnn_init(handle);
        json_.end_object();
        if (verdict.exit_code != 0) return verdict;
        json_.begin_array("conv");
        verdict = convolve(handle, false);
        if (verdict.exit_code == 0 && options_.half && major_ >= 7)
            verdict = convolve(handle, true);
        json_.end_array();
        cudnn_.cudnnDestroy(handle);
        return verdict;
    }

    Verdict cudnn_init(abi::cudnnHandle_t& handle) {
        DynLib* lib = load("cudnn", options_.cudnn);
        if (lib == nullptr) return verdict_load_failed;
        if (!cudnn_.bind(*lib)) {
            error("dlsym cudnn", "missing symbols", lib->path);
            return verdict_load_failed;
        }
        json_.field("version", cudnn_.cudnnGetVersion());
        json_.field("cudart_version", cudnn_.cudnnGetCudartVersion());
        stage("cudnnCreate");
        const abi::cudnnStatus_t created = cudnn_.cudnnCreate(&handle);
        json_.field("cudnnCreate", cudnn_.name(created));
        if (created != abi::CUDNN_STATUS_SUCCESS) {
            error("cudnnCreate", cudnn_.name(created), "");
            return verdict_init_failed;
        }
        return verdict_ok;
    }

    Verdict convolve(abi::cudnnHandle_t handle, bool half) {
        stage(half ? "conv half" : "conv float");
        const ConvRun run = run_conv(runtime_, cudnn_, handle, half);
        const ConvShape shape;
        json_.begin_object()
            .field("dtype", half ? "half" : "float")
            .field("shape", "N" + std::to_string(shape.n) + " C" + std::to_string(shape.c) + " H" +
                                std::to_string(shape.h) + " W" + std::to_string(shape.w) + " K" +
                                std::to_string(shape.k) + " R" + std::to_string(shape.r) + " S" +
                                std::to_string(shape.s) + " pad" + std::to_string(shape.pad))
            .field("ran", run.ran)
            .field("ok", run.ok)
            .field("failed_stage", run.failed_stage)
            .field("status", run.status)
            .field("algo", run.algo)
            .field("math_type", run.math_type)
            .field("workspace", run.workspace)
            .field("atol", run.tolerance.atol)
            .field("rtol", run.tolerance.rtol)
            .field("max_abs_error", run.comparison.max_abs_error)
            .field("mismatches", run.comparison.mismatches);
        json_.begin_array("failed_algos");
        for (const std::string& attempt : run.attempts) json_.value(attempt);
        json_.end_array().end_object();
        const std::string label = half ? "conv half" : "conv float";
        if (!run.ran) {
            error(label + " " + run.failed_stage, run.status, "");
            return verdict_conv_failed;
        }
        if (!run.ok) {
            error(label, "mismatch",
                  std::to_string(run.comparison.mismatches) +
                      " elements outside tolerance, max abs error " +
                      std::to_string(run.comparison.max_abs_error));
            return verdict_conv_mismatch;
        }
        return verdict_ok;
    }

    const Options& options_;
    JsonOut json_;
    std::deque<DynLib> libs_;  // a deque keeps the pointers load() hands out valid
    std::vector<std::string> errors_;
    DriverApi driver_;
    RuntimeApi runtime_;
    CudnnApi cudnn_;
    int major_ = 0;
};

}  // namespace
}  // namespace cuvet::probe

#if defined(__SANITIZE_ADDRESS__)
#define CUVET_PROBE_UNDER_ASAN 1
#elif defined(__has_feature)  // clang 14 says ASan only through __has_feature
#if __has_feature(address_sanitizer)
#define CUVET_PROBE_UNDER_ASAN 1
#endif
#endif

#if defined(CUVET_PROBE_UNDER_ASAN)
// The ASan build (CI) runs inside cuvet's sandbox, whose seccomp filter denies ptrace, which
// LeakSanitizer's stop-the-world needs: it would turn every clean exit into a fatal error.
extern "C" int __lsan_is_turned_off() { return 1; }
#endif

int main(int argc, char** argv) {
    using namespace cuvet::probe;
    Options options;
    if (!parse(argc, argv, options)) {
        usage();
        return 2;
    }
    // Libraries may print to stdout (cuDNN's logging does); keep the real
    // stdout for the JSON alone and send everything else to stderr.
    const int json_fd = dup(STDOUT_FILENO);
    if (json_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::perror("cuvet-probe: dup");
        return 4;
    }
    Probe probe(options);
    const Verdict verdict = probe.run();
    const std::string text = probe.finish(verdict);
    std::fflush(stdout);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = write(json_fd, text.data() + written, text.size() - written);
        if (n <= 0) return 4;
        written += static_cast<std::size_t>(n);
    }
    return verdict.exit_code;
}
