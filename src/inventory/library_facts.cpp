// Versions from library files: names (libcudnn.so.9.19.0, libcudart.so.12.4.127) and
// the release constant cuDNN 9 keeps in libcudnn_graph.
#include <array>
#include <cctype>

#include "facts.hpp"

namespace cuvet::inventory::detail {

namespace {

struct LibraryKind {
    std::string_view stem;  // file name up to and including ".so"
    std::string_view component;
    std::string_view category;
};

constexpr std::array<LibraryKind, 29> library_kinds = {{
    {"libcudnn.so", "cudnn", "cuda-library"},
    {"libcudart.so", "cudart", "cuda-library"},
    {"libcublas.so", "cublas", "cuda-library"},
    {"libcublasLt.so", "cublas", "cuda-library"},
    {"libcufft.so", "cufft", "cuda-library"},
    {"libcufftw.so", "cufft", "cuda-library"},
    {"libcupti.so", "cupti", "cuda-library"},
    {"libcusolverMg.so", "cusolver", "cuda-library"},
    {"libnvblas.so", "cublas", "cuda-library"},
    // NPP: one core library and one per function group, all of one release.
    {"libnppc.so", "npp", "cuda-library"},
    {"libnppial.so", "npp", "cuda-library"},
    {"libnppicc.so", "npp", "cuda-library"},
    {"libnppidei.so", "npp", "cuda-library"},
    {"libnppif.so", "npp", "cuda-library"},
    {"libnppig.so", "npp", "cuda-library"},
    {"libnppim.so", "npp", "cuda-library"},
    {"libnppist.so", "npp", "cuda-library"},
    {"libnppisu.so", "npp", "cuda-library"},
    {"libnppitc.so", "npp", "cuda-library"},
    {"libnpps.so", "npp", "cuda-library"},
    {"libcurand.so", "curand", "cuda-library"},
    {"libcusolver.so", "cusolver", "cuda-library"},
    {"libcusparse.so", "cusparse", "cuda-library"},
    {"libnvrtc.so", "nvrtc", "cuda-library"},
    {"libnvJitLink.so", "nvjitlink", "cuda-library"},
    {"libnccl.so", "nccl", "cuda-library"},
    {"libnvinfer.so", "tensorrt", "cuda-library"},
    {"libcuda.so", "libcuda", "driver"},
    {"libnvidia-ml.so", "nvidia-ml", "driver"},
}};

// "12.4.127" from ".12.4.127"; "" when the suffix is not a dotted number.
std::string dotted_version(std::string_view rest) {
    if (rest.empty()) return "";
    if (rest[0] != '.') return "";
    rest.remove_prefix(1);
    for (char c : rest)
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return "";
    return std::string(rest);
}

// cuDNN 9's file names say only "9"; its graph library states the full release.
// Only the graph library's counts for the install: cudnnGetVersion() answers from it, and an
// odd ops or adv library (its own constant) must not become the version of the whole cuDNN.
void cudnn_constant_fact(const std::string& path, const elf::ElfInfo& info, Facts& out) {
    if (info.cudnn_release.empty() || !info.soname.starts_with("libcudnn_graph.")) return;
    Fact fact;
    fact.component = "cudnn";
    fact.category = "cuda-library";
    fact.version = info.cudnn_release;
    fact.root = root_of_dir(dir_of(path));
    fact.source = "files";
    fact.rank = rank_elf_constant;
    fact.file = path;
    fact.evidence = {"elf-constant", path, fact.version, "cudnn_version_ constant in .rodata"};
    out.push_back(std::move(fact));
}

}  // namespace

void library_facts(const Analysis& analysis, Facts& out) {
    for (const auto& [path, entry] : analysis.tree.entries()) {
        if (entry.type != image::FileType::regular) continue;
        auto name = base_of(path);
        if (name.rfind("lib", 0) != 0) continue;
        // The toolkit's link stubs are not libraries anything runs with.
        if (path.find("/stubs/") != std::string::npos) continue;
        if (auto elf = analysis.elfs.find(path); elf != analysis.elfs.end())
            cudnn_constant_fact(path, elf->second, out);
        for (const auto& kind : library_kinds) {
            if (name.compare(0, kind.stem.size(), kind.stem) != 0) continue;
            auto rest = std::string_view(name).substr(kind.stem.size());
            if (!rest.empty() && rest[0] != '.') continue;
            Fact fact;
            fact.component = kind.component;
            fact.category = kind.category;
            fact.version = dotted_version(rest);
            fact.root = root_of_dir(dir_of(path));
            fact.source = "files";
            fact.rank = rank_file_name;
            fact.file = path;
            fact.evidence = {"file-name", path, fact.version, ""};
            if (const auto* info = analysis.elfs.count(path) ? &analysis.elfs.at(path) : nullptr)
                fact.evidence.detail = info->soname.empty() ? "" : "SONAME " + info->soname;
            out.push_back(std::move(fact));
            break;
        }
    }
}

}  // namespace cuvet::inventory::detail
