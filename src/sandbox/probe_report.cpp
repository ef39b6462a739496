#include "cuvet/sandbox/probe_report.hpp"

#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"

namespace cuvet::sandbox {
namespace {

using nlohmann::json;

std::string text(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <class T>
std::optional<T> number(const json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number()) return std::nullopt;
    return it->get<T>();
}

bool flag(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::vector<std::string> strings(const json& object, const char* key) {
    std::vector<std::string> out;
    auto it = object.find(key);
    if (it == object.end() || !it->is_array()) return out;
    for (const json& item : *it) {
        if (item.is_string()) out.push_back(item.get<std::string>());
    }
    return out;
}

const json& child(const json& object, const char* key) {
    static const json empty = json::object();
    auto it = object.find(key);
    return it != object.end() && it->is_object() ? *it : empty;
}

}  // namespace

const ProbeLibrary* ProbeReport::library(std::string_view role) const {
    for (const ProbeLibrary& lib : libraries) {
        if (lib.role == role) return &lib;
    }
    return nullptr;
}

ProbeReport parse_probe_report(std::string_view text_in) {
    // The probe prints exactly one object; anything before its first '{' is noise.
    const std::size_t start = text_in.find('{');
    if (start == std::string_view::npos) fail_input("the probe printed no JSON");
    json root = json::parse(text_in.substr(start), nullptr, false);
    if (root.is_discarded() || !root.is_object() || text(root, "probe") != "cuvet-probe")
        fail_input("the probe's output is not cuvet-probe JSON");

    ProbeReport report;
    report.mode = text(root, "mode");
    report.verdict = text(root, "verdict");
    report.exit_code = number<int>(root, "exit_code").value_or(-1);
    report.reference_ok = flag(root, "reference_self_check");
    const json& driver = child(root, "driver");
    report.driver_version = number<int>(driver, "version");
    report.cu_init = text(driver, "cuInit");
    report.device_count = number<int>(driver, "device_count").value_or(0);
    const json& device = child(driver, "device");
    report.device_name = text(device, "name");
    report.compute_capability = text(device, "compute_capability");
    const json& runtime = child(root, "runtime");
    report.runtime_version = number<int>(runtime, "version");
    report.runtime_status = text(runtime, "cudaSetDevice");
    if (report.runtime_status.empty()) report.runtime_status = text(runtime, "cudaGetDeviceCount");
    const json& cudnn = child(root, "cudnn");
    report.cudnn_version = number<long long>(cudnn, "version");
    report.cudnn_cudart_version = number<long long>(cudnn, "cudart_version");
    report.cudnn_create = text(cudnn, "cudnnCreate");
    if (auto it = root.find("libraries"); it != root.end() && it->is_array()) {
        for (const json& item : *it) {
            if (!item.is_object()) continue;
            report.libraries.push_back({text(item, "role"), text(item, "requested"),
                                        flag(item, "loaded"), text(item, "path"),
                                        text(item, "error"), strings(item, "missing_symbols")});
        }
    }
    if (auto it = root.find("conv"); it != root.end() && it->is_array()) {
        for (const json& item : *it) {
            if (!item.is_object()) continue;
            ProbeConv conv;
            conv.dtype = text(item, "dtype");
            conv.ran = flag(item, "ran");
            conv.ok = flag(item, "ok");
            conv.failed_stage = text(item, "failed_stage");
            conv.status = text(item, "status");
            conv.algo = number<int>(item, "algo").value_or(-1);
            conv.max_abs_error = number<double>(item, "max_abs_error").value_or(0);
            conv.atol = number<double>(item, "atol").value_or(0);
            conv.rtol = number<double>(item, "rtol").value_or(0);
            conv.mismatches = number<long long>(item, "mismatches").value_or(0);
            report.convs.push_back(conv);
        }
    }
    report.loaded_objects = strings(root, "loaded_objects");
    report.errors = strings(root, "errors");
    return report;
}

std::string cudnn_version_string(long long version) {
    if (version >= 90000) {
        return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
               std::to_string(version % 100);
    }
    return std::to_string(version / 1000) + "." + std::to_string(version / 100 % 10) + "." +
           std::to_string(version % 100);
}

std::string cuda_version_string(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace cuvet::sandbox
