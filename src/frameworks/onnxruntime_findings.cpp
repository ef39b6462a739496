// ONNX Runtime's own failure: its CUDA provider library does not load (CUV015), in the words
// ORT logs.
#include <map>
#include <optional>
#include <set>

#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {

// ONNX Runtime loads libonnxruntime_providers_cuda.so when a session asks for
// the CUDA provider; a DT_NEEDED it cannot resolve makes the load fail, ORT
// logs two lines and the session runs on the CPU (texts as ORT prints them,
// microsoft/onnxruntime provider_bridge_ort.cc / onnxruntime_pybind_state.cc).
std::vector<report::Finding> onnxruntime_gpu_library_findings(const stack::Stack& stack,
                                                              const rules::Database& db,
                                                              const stack::FrameworkInstall& fw) {
    std::map<std::string_view, const stack::ElfObject*> by_file;
    const stack::ElfObject* provider = nullptr;
    for (const auto& o : stack.objects) {
        by_file.emplace(o.file, &o);
        if (o.path.ends_with("/libonnxruntime_providers_cuda.so") &&
            o.path.starts_with(fw.root + "/"))
            provider = &o;
    }
    if (provider == nullptr) return {};
    // The CUDA and cuDNN majors it was built for, from its own DT_NEEDED.
    std::string cuda = "?", cudnn = "?";
    for (const auto& r : provider->resolutions) {
        auto dot = r.name.rfind(".so.");
        if (dot == std::string::npos) continue;
        auto major = r.name.substr(dot + 4, r.name.find('.', dot + 4) - dot - 4);
        if (starts_with(r.name, "libcudnn.so.")) cudnn = major;
        if (starts_with(r.name, "libcudart.so.") || starts_with(r.name, "libcublasLt.so."))
            cuda = major;
    }
    std::vector<const stack::ElfObject*> queue = {provider};
    std::set<std::string_view> seen = {provider->file};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (const auto& r : queue[i]->resolutions) {
            if (r.from_dlopen || r.provided_by_host) continue;
            if (r.path.empty()) {
                report::Finding f;
                // The warning that follows is worded per release (rules error_texts).
                rules::MessageValues values;
                if (cudnn != "?") values.cudnn_major = cudnn;
                if (cuda != "?") values.cuda_major = cuda;
                auto then = framework_says(db, fw, "cuda_ep_unavailable", values);
                f.message =
                    "onnxruntime " + fw.version.str() + " cannot load its CUDA provider " +
                    provider->path + " (" + r.name +
                    (queue[i] == provider ? "" : ", needed by " + queue[i]->path) +
                    ", is not found), so every session runs on the CPU: \"Failed to load library "
                    "libonnxruntime_providers_cuda.so with error: " +
                    r.name + ": cannot open shared object file: No such file or directory\"" +
                    (then ? " then \"" + then->text + "\"" : "");
                if (then)
                    f.evidence.push_back("what onnxruntime " + fw.version.str() +
                                         " prints next: " + rules::cite(then->row->provenance));
                f.locations = {{provider->path}};
                add_trace(f, r);
                f.fix =
                    "Install what the provider needs where ld.so finds it (pip install '" +
                    pip_package(cuda_family_of(r.name), cuda == "?" || cuda == "13"
                                                            ? std::nullopt
                                                            : std::optional<int>(std::stoi(cuda))) +
                    "' and add its lib dir to LD_LIBRARY_PATH, or call "
                    "onnxruntime.preload_dlls() before creating the "
                    "session), or use an image with CUDA " +
                    cuda + " and cuDNN " + cudnn + ".";
                return {std::move(f)};
            }
            if (auto it = by_file.find(r.file); it != by_file.end() && seen.insert(r.file).second)
                queue.push_back(it->second);
        }
    }
    return {};
}

}  // namespace cuvet::frameworks::detail
