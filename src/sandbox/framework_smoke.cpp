#include "cuvet/sandbox/framework_smoke.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::sandbox {

// Generated from src/frameworks/smoke/*.py by cmake/EmbedFiles.cmake.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_smoke_scripts();

namespace {

std::string_view embedded(std::string_view name) {
    for (const auto& [file, text] : embedded_smoke_scripts()) {
        if (file == name) return text;
    }
    return {};
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find(separator, at);
        if (end == std::string_view::npos) end = text.size();
        parts.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return parts;
}

bool is_file(const image::FileTree& tree, const std::string& path) {
    const image::Resolution resolved = tree.resolve(path);
    return resolved.status == image::Resolution::Status::ok && resolved.entry != nullptr &&
           resolved.entry->type == image::FileType::regular;
}

// "/opt/venv/lib/python3.12/site-packages" → the pythons that use it, most specific first.
std::vector<std::string> interpreter_candidates(const std::string& packages_dir) {
    static const std::regex layout(R"(^(.*)/lib/(python3(\.\d+)?)/(site|dist)-packages$)");
    std::smatch match;
    std::vector<std::string> out;
    if (std::regex_match(packages_dir, match, layout)) {
        const std::string prefix = match[1].str().empty() ? "/" : match[1].str();
        const std::string name = match[2].str();
        const std::string bin = (prefix == "/" ? std::string() : prefix) + "/bin/";
        out = {bin + name, bin + "python3", bin + "python"};
        if (prefix == "/usr/local" || prefix == "/usr")
            out.insert(out.end(),
                       {"/usr/local/bin/" + name, "/usr/bin/" + name, "/usr/bin/python3"});
    }
    out.insert(out.end(), {"/usr/local/bin/python3", "/usr/bin/python3"});
    return out;
}

std::string first_interpreter(const image::FileTree& tree,
                              const std::vector<std::string>& candidates) {
    for (const std::string& candidate : candidates) {
        if (is_file(tree, candidate)) return candidate;
    }
    return {};
}

std::optional<std::string> env_value(const std::vector<std::string>& env, std::string_view key) {
    std::optional<std::string> value;
    for (const std::string& entry : env) {
        if (entry.size() > key.size() && entry.compare(0, key.size(), key) == 0 &&
            entry[key.size()] == '=')
            value = entry.substr(key.size() + 1);
    }
    return value;
}

// The stderr texts any framework fails with (recorded on the GPU machine:
// testdata/gpu/env/framework_variants.log); each framework's own are in its
// src/frameworks/<name>.cpp.
const std::vector<std::string_view>& error_markers() {
    static const std::vector<std::string_view> markers = [] {
        std::vector<std::string_view> out = {
            "cannot open shared object file",  // the loader, through any framework
            "ptxas",                           // XLA/Triton looking for ptxas
            "not found.",  // "cuDNN not found.", "The cuSPARSE library was not found."
            "CUDA driver version is insufficient",  // any CUDA runtime on an old driver
            "no kernel image is available",         // a build without code for this GPU
        };
        for (const frameworks::Framework* framework : frameworks::all())
            out.insert(out.end(), framework->error_markers.begin(), framework->error_markers.end());
        return out;
    }();
    return markers;
}

std::string trimmed(std::string line) {
    const std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) return {};
    line = line.substr(begin, line.find_last_not_of(" \t\r") - begin + 1);
    if (line.size() > 300) line = line.substr(0, 297) + "...";
    return line;
}

std::vector<std::string> string_list(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (!value.is_array()) return out;
    for (const auto& item : value) {
        if (item.is_string()) out.push_back(item.get<std::string>());
    }
    return out;
}

std::string string_field(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// XLA logs "Loaded cuDNN version 91900" (an INFO line) when it opens cuDNN.
std::optional<long long> xla_cudnn_version(std::string_view err) {
    static const std::regex loaded(R"(Loaded cuDNN version (\d+))");
    const std::string text(err);
    std::smatch match;
    if (!std::regex_search(text, match, loaded)) return std::nullopt;
    return std::stoll(match[1].str());
}

}  // namespace

const std::vector<std::string>& smoke_frameworks() { return frameworks::smoke_names(); }

std::string smoke_script(std::string_view framework) {
    const std::string_view body = embedded(framework);
    if (body.empty() || framework == "common") return {};
    return std::string(embedded("common")) + std::string(body);
}

std::vector<SmokeTarget> find_smoke_targets(const image::FileTree& tree,
                                            const std::vector<std::string>& image_env) {
    std::vector<SmokeTarget> found;
    std::set<std::string> seen;
    auto add = [&](const std::string& framework, const std::string& package_dir,
                   const std::string& interpreter) {
        if (interpreter.empty() || !seen.insert(package_dir).second) return;
        found.push_back({framework, package_dir, interpreter});
    };
    for (const auto& [path, entry] : tree.entries()) {
        // ".../site-packages/torch/__init__.py"
        constexpr std::string_view init = "/__init__.py";
        if (path.size() <= init.size() ||
            path.compare(path.size() - init.size(), init.size(), init) != 0)
            continue;
        const std::string package_dir = path.substr(0, path.size() - init.size());
        const std::size_t slash = package_dir.rfind('/');
        if (slash == std::string::npos) continue;
        const std::string name = package_dir.substr(slash + 1);
        if (std::find(smoke_frameworks().begin(), smoke_frameworks().end(), name) ==
            smoke_frameworks().end())
            continue;
        const std::string packages = package_dir.substr(0, slash);
        const bool site =
            packages.ends_with("/site-packages") || packages.ends_with("/dist-packages");
        if (site) add(name, package_dir, first_interpreter(tree, interpreter_candidates(packages)));
    }
    // PYTHONPATH directories: the interpreter is the image's python3.
    if (const auto python_path = env_value(image_env, "PYTHONPATH")) {
        for (const std::string& dir : split(*python_path, ':')) {
            if (dir.empty() || dir[0] != '/') continue;
            for (const std::string& name : smoke_frameworks()) {
                if (is_file(tree, dir + "/" + name + "/__init__.py"))
                    add(name, dir + "/" + name,
                        first_interpreter(tree, interpreter_candidates(dir)));
            }
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const SmokeTarget& a, const SmokeTarget& b) {
        const auto rank = [](const std::string& name) {
            return std::find(smoke_frameworks().begin(), smoke_frameworks().end(), name) -
                   smoke_frameworks().begin();
        };
        return rank(a.framework) < rank(b.framework);
    });
    return found;
}

std::vector<std::string> parse_framework_list(std::string_view text) {
    if (text.empty() || text == "auto") return {"auto"};
    if (text == "none") return {};
    std::vector<std::string> names;
    for (std::string name : split(text, ',')) {
        name = trimmed(name);
        // "pytorch", "ort": a framework's other names mean its smoke test.
        if (const auto* framework = frameworks::find(name);
            framework != nullptr && !framework->smoke.empty())
            name = framework->smoke;
        if (std::find(smoke_frameworks().begin(), smoke_frameworks().end(), name) ==
            smoke_frameworks().end()) {
            std::string known;
            for (const std::string& each : smoke_frameworks()) known += each + ", ";
            fail_usage("--probe-frameworks: unknown framework '" + name + "' (" + known +
                       "auto, none)");
        }
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
}

std::vector<SmokeTarget> select_targets(const std::vector<SmokeTarget>& found,
                                        const std::vector<std::string>& wanted) {
    const bool all = std::find(wanted.begin(), wanted.end(), "auto") != wanted.end();
    std::vector<SmokeTarget> out;
    for (const SmokeTarget& target : found) {
        if (all || std::find(wanted.begin(), wanted.end(), target.framework) != wanted.end())
            out.push_back(target);
    }
    return out;
}

std::vector<std::string> framework_error_lines(std::string_view stderr_text) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const std::string& raw : split(stderr_text, '\n')) {
        // glog INFO lines ("I1123 12:06:41.8 …") are progress, never the error.
        if (raw.size() > 1 && raw[0] == 'I' && std::isdigit(static_cast<unsigned char>(raw[1])))
            continue;
        const bool known = std::any_of(
            error_markers().begin(), error_markers().end(),
            [&](std::string_view marker) { return raw.find(marker) != std::string::npos; });
        if (!known) continue;
        std::string line = trimmed(raw);
        if (!line.empty() && seen.insert(line).second) out.push_back(std::move(line));
        if (out.size() == 12) break;
    }
    return out;
}

SmokeResult parse_smoke_result(const SmokeTarget& target, const ProcessResult& process) {
    SmokeResult result;
    result.target = target;
    result.process = process;
    result.framework_messages = framework_error_lines(process.err);
    // A program that flooded its output was killed: whatever result line it printed is not
    // believed.
    if (process.output_truncated) return result;
    constexpr std::string_view tag = "CUVET_SMOKE ";
    std::string json;
    for (const std::string& line : split(process.out, '\n')) {
        if (line.compare(0, tag.size(), tag) == 0) json = line.substr(tag.size());
    }
    const nlohmann::json value = nlohmann::json::parse(json, nullptr, false);
    if (json.empty() || value.is_discarded() || !value.is_object()) return result;
    result.parsed = true;
    result.verdict = string_field(value, "verdict");
    result.stage = string_field(value, "stage");
    result.error = string_field(value, "error");
    result.version = string_field(value, "version");
    result.backend = string_field(value, "backend");
    result.gpu_available = value.value("gpu_available", false);
    result.loaded = string_list(value.value("loaded", nlohmann::json::array()));
    if (const auto it = value.find("cudnn_version"); it != value.end() && it->is_number_integer())
        result.cudnn_version = it->get<long long>();
    if (!result.cudnn_version) result.cudnn_version = xla_cudnn_version(process.err);
    if (const auto it = value.find("max_abs_err"); it != value.end() && it->is_number())
        result.max_abs_error = it->get<double>();
    return result;
}

}  // namespace cuvet::sandbox
