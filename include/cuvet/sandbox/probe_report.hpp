#pragma once
// What cuvet-probe printed (its JSON, schema 1), as typed facts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::sandbox {

struct ProbeLibrary {
    std::string role;       // libcuda, cudart, cudnn, preload
    std::string requested;  // path or soname asked for
    bool loaded = false;
    std::string path;   // the real file that was mapped
    std::string error;  // dlerror() text
    std::vector<std::string> missing_symbols;
};

struct ProbeConv {
    std::string dtype;  // float, half
    bool ran = false;
    bool ok = false;
    std::string failed_stage;
    std::string status;
    int algo = -1;
    double max_abs_error = 0;
    double atol = 0;
    double rtol = 0;
    long long mismatches = 0;
};

struct ProbeReport {
    std::string mode;     // check, self-test
    std::string verdict;  // ok, no_device, load_failed, init_failed, conv_failed, conv_mismatch
    int exit_code = -1;
    bool reference_ok = false;
    std::optional<int> driver_version;  // cuDriverGetVersion: 13000
    std::string cu_init;                // CUDA_SUCCESS, CUDA_ERROR_NO_DEVICE…
    int device_count = 0;
    std::string device_name;
    std::string compute_capability;  // "9.0"
    std::optional<int> runtime_version;
    std::string runtime_status;  // cudaGetDeviceCount / cudaSetDevice outcome
    std::optional<long long> cudnn_version;
    std::optional<long long> cudnn_cudart_version;
    std::string cudnn_create;
    std::vector<ProbeLibrary> libraries;
    std::vector<std::string> loaded_objects;
    std::vector<std::string> errors;
    std::vector<ProbeConv> convs;

    const ProbeLibrary* library(std::string_view role) const;
};

// Throws cuvet::Error (input) when the text is not the probe's JSON.
ProbeReport parse_probe_report(std::string_view json);

// "9.19.0" from 91900 (cuDNN 9+: M*10000+m*100+p; cuDNN 8: M*1000+m*100+p).
std::string cudnn_version_string(long long version);
// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace cuvet::sandbox
