// CUV020 runtime-env-hides-gpu
#include <algorithm>
#include <optional>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv020 {

// Where the rules below come from (NVIDIA container toolkit and CUDA documentation).
constexpr const char* toolkit_env_doc =
    "NVIDIA Container Toolkit, Specialized Configurations with Docker, Environment variables (OCI "
    "spec): https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/1.20.2/"
    "docker-specialized.html";
constexpr const char* cuda_env_doc =
    "NVIDIA MPS docs, CUDA_VISIBLE_DEVICES: only the devices whose index or UUID is present in "
    "the sequence are visible to CUDA applications: "
    "https://docs.nvidia.com/deploy/topics/topic_5_2_1.html";
// The runtime mode the toolkit rules assume.
constexpr const char* legacy_mode =
    "Assumes the NVIDIA runtime reads the image's Env (nvidia-container-runtime in legacy mode, "
    "`docker run --runtime=nvidia`); `docker run --gpus`, a Kubernetes device plugin and CDI "
    "(`--device nvidia.com/gpu=…`) choose the devices themselves and override "
    "NVIDIA_VISIBLE_DEVICES.";

std::string trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return std::string(s);
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        auto end = s.find(sep, start);
        if (end == std::string_view::npos) end = s.size();
        if (auto part = trimmed(s.substr(start, end - start)); !part.empty()) out.push_back(part);
        start = end + 1;
    }
    return out;
}

// What the image runs that uses the GPU: roots whose process maps a CUDA-stack library or the
// host's libcuda. Empty: a CPU image, whose Env hides nothing that matters.
std::vector<std::string> gpu_roots(const Stack& stack) {
    std::vector<std::string> out;
    for (const auto& o : stack.objects) {
        const auto* root = stack.root_of(o.file);
        if (root == nullptr || std::find(out.begin(), out.end(), *root) != out.end()) continue;
        for (const auto& r : o.resolutions)
            if (r.provided_by_host || (!r.file.empty() && stack.library(r.file) != nullptr)) {
                out.push_back(*root);
                break;
            }
    }
    return out;
}

bool runs_on_gpus(const Stack& stack) {
    return !stack.targets.drivers.empty() || !stack.targets.gpus.empty() ||
           !stack.targets.pools.empty();
}

struct Problem {
    std::string variable;
    std::string value;
    std::string effect;  // what the process gets
    std::string source;
    bool toolkit = true;  // read by the NVIDIA runtime (mode-dependent), else by CUDA itself
};

std::vector<Problem> visibility_problems(const Stack& stack) {
    std::vector<Problem> out;
    if (auto it = stack.env.find("CUDA_VISIBLE_DEVICES"); it != stack.env.end()) {
        const auto value = trimmed(it->second);
        if (value.empty() || value == "-1" || value.rfind("-1,", 0) == 0)
            out.push_back({it->first, it->second,
                           "CUDA enumerates no device: every framework sees no GPU "
                           "(cudaGetDeviceCount returns cudaErrorNoDevice)",
                           cuda_env_doc, false});
    }
    if (auto it = stack.env.find("NVIDIA_VISIBLE_DEVICES"); it != stack.env.end()) {
        const auto value = trimmed(it->second);
        if (value.empty() || value == "void")
            out.push_back({it->first, it->second,
                           "the NVIDIA runtime behaves like runc: no GPU device and no driver "
                           "library (libcuda.so.1) is injected",
                           toolkit_env_doc});
        else if (value == "none")
            out.push_back({it->first, it->second,
                           "no GPU device is injected (the driver libraries are)",
                           toolkit_env_doc});
    }
    if (auto it = stack.env.find("NVIDIA_DRIVER_CAPABILITIES"); it != stack.env.end()) {
        const auto caps = split(it->second, ',');
        // Empty means the runtime's default set, which this check does not guess.
        if (!caps.empty() && std::find(caps.begin(), caps.end(), "compute") == caps.end() &&
            std::find(caps.begin(), caps.end(), "all") == caps.end())
            out.push_back({it->first, it->second,
                           "the capabilities lack `compute`, which is what mounts libcuda.so.1: "
                           "CUDA finds no driver",
                           toolkit_env_doc});
    }
    return out;
}

report::Finding finding(const Stack& stack, const Problem& p,
                        const std::vector<std::string>& roots) {
    report::Finding f;
    f.id = "CUV020";
    f.severity = runs_on_gpus(stack) ? report::Severity::error : report::Severity::warning;
    std::string users;
    for (std::size_t i = 0; i < roots.size() && i < 4; ++i) users += (i ? ", " : "") + roots[i];
    f.message = "ENV " + p.variable + "=" + p.value + ": " + p.effect +
                ". What the image runs on " + "the GPU (" + users +
                ") falls back to the CPU or fails" +
                (runs_on_gpus(stack) ? ", on the GPUs the targets name." : ".") +
                (p.toolkit ? std::string(" ") + legacy_mode : std::string());
    if (auto origin = stack.env_origin.find(p.variable); origin != stack.env_origin.end())
        f.locations.push_back({origin->second});
    f.evidence.push_back(p.variable + ": " + p.source);
    util::name_roots(f, roots);
    f.fix = "Remove ENV " + p.variable + " from the image (set it per deployment instead)" +
            (p.variable == "NVIDIA_DRIVER_CAPABILITIES"
                 ? ", or include compute: NVIDIA_DRIVER_CAPABILITIES=compute,utility."
                 : ".");
    return f;
}

// --- NVIDIA_REQUIRE_*: "cuda>=12.4 brand=tesla,driver>=470,driver<471": space-separated
// alternatives, each a comma-separated conjunction; every NVIDIA_REQUIRE_* variable must hold.

// The newest CUDA a driver runs, from the table's minimum drivers (unknown rows skipped).
// `at_least`: the driver also runs the table's newest release, so it may run newer ones too.
struct DriverCuda {
    rules::Version cuda;
    bool at_least = false;
};
std::optional<DriverCuda> driver_cuda(const rules::Database& db, const rules::Version& driver) {
    std::optional<DriverCuda> best;
    std::optional<rules::Version> newest;
    for (const auto& e : db.driver_entries()) {
        if (!newest || *newest < e.cuda) newest = e.cuda;
        if (e.min_driver && !(driver < *e.min_driver) && (!best || best->cuda < e.cuda))
            best = DriverCuda{e.cuda, false};
    }
    if (best && newest && !(best->cuda < *newest)) best->at_least = true;
    return best;
}

// true / false, or nullopt when a term cannot be judged here (brand=, arch=, unknown keys).
std::optional<bool> term_holds(const std::string& term, const rules::Version& driver,
                               const std::optional<DriverCuda>& cuda) {
    for (std::string_view op : {">=", "<=", "=", ">", "<"}) {
        auto at = term.find(op);
        if (at == std::string::npos) continue;
        const auto key = term.substr(0, at);
        const auto want = rules::Version::parse(term.substr(at + op.size()));
        std::optional<rules::Version> have;
        if (key == "driver") have = driver;
        if (key == "cuda" && cuda) have = cuda->cuda.truncated(2);
        if (!want || !have) return std::nullopt;
        const auto a = have->truncated(want->size());
        bool holds = op == ">="   ? !(a < *want)
                     : op == "<=" ? !(*want < a)
                     : op == ">"  ? *want < a
                     : op == "<"  ? a < *want
                                  : a == *want;
        // A driver past the table's newest release may run a CUDA the table does not list yet.
        if (!holds && key == "cuda" && cuda->at_least) return std::nullopt;
        return holds;
    }
    return std::nullopt;
}

// false when every alternative is false for this driver; nullopt when unknown.
std::optional<bool> requirement_holds(const std::string& expression, const rules::Version& driver,
                                      const std::optional<DriverCuda>& cuda) {
    bool unknown = false;
    for (const auto& alternative : split(expression, ' ')) {
        std::optional<bool> all = true;
        for (const auto& term : split(alternative, ',')) {
            auto holds = term_holds(term, driver, cuda);
            if (holds == false) {
                all = false;
                break;
            }
            if (!holds) all = std::nullopt;
        }
        if (all == true) return true;
        if (!all) unknown = true;
    }
    if (unknown) return std::nullopt;
    return false;
}

void require_findings(const Stack& stack, const rules::Database& db,
                      const std::vector<std::string>& roots, std::vector<report::Finding>& out) {
    if (auto off = stack.env.find("NVIDIA_DISABLE_REQUIRE");
        off != stack.env.end() && !trimmed(off->second).empty() && off->second != "false")
        return;
    for (const auto& [name, value] : stack.env) {
        if (name.rfind("NVIDIA_REQUIRE_", 0) != 0 || trimmed(value).empty()) continue;
        std::vector<std::string> refused;
        for (const auto& driver : stack.targets.drivers)
            if (requirement_holds(value, driver, driver_cuda(db, driver)) == false)
                refused.push_back(driver.str());
        if (refused.empty()) continue;
        report::Finding f;
        f.id = "CUV020";
        f.severity = report::Severity::error;
        std::string drivers;
        for (const auto& d : refused) drivers += (drivers.empty() ? "" : ", ") + d;
        f.message = "ENV " + name + "=\"" + value + "\": the NVIDIA runtime refuses to start the " +
                    "container on driver " + drivers +
                    " (\"nvidia-container-cli: requirement error: unsatisfied condition\"); no "
                    "alternative of the constraint holds there. Assumes the NVIDIA runtime "
                    "checks the image's NVIDIA_REQUIRE_* (legacy mode and --gpus; CDI does not).";
        if (auto origin = stack.env_origin.find(name); origin != stack.env_origin.end())
            f.locations.push_back({origin->second});
        f.evidence.push_back(std::string("NVIDIA_REQUIRE_*: ") + toolkit_env_doc);
        for (const auto& d : stack.targets.drivers)
            if (auto cuda = driver_cuda(db, d))
                f.evidence.push_back("driver " + d.str() + " runs CUDA up to " + cuda->cuda.str() +
                                     " (rules/cuda_drivers.json)");
        util::name_roots(f, roots);
        f.fix = "Lower the constraint in " + name +
                " to what the image needs, update the driver, or set NVIDIA_DISABLE_REQUIRE=1 "
                "only where the image is known to run (forward compatibility).";
        out.push_back(std::move(f));
    }
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    const auto roots = gpu_roots(stack);
    if (roots.empty()) return {};
    std::vector<report::Finding> out;
    for (const auto& p : visibility_problems(stack)) out.push_back(finding(stack, p, roots));
    require_findings(stack, db, roots, out);
    return out;
}

}  // namespace cuv020

const ValidateCheck cuv020_runtime_env_hides_gpu{
    CheckInfo{
        .id = "CUV020",
        .severity = report::Severity::error,
        .name = "runtime-env-hides-gpu",
    },
    &cuv020::run,
};

}  // namespace cuvet::checks
