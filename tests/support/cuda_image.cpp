#include "support/cuda_image.hpp"

#include <algorithm>
#include <fstream>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/image_writer.hpp"

namespace cuvet::test {

namespace fs = std::filesystem;

CudaImage::CudaImage() {
    env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
    fs_.write("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    fs_.write("/etc/os-release",
              "ID=ubuntu\nVERSION_ID=\"22.04\"\nPRETTY_NAME=\"Ubuntu 22.04 (cuvet test)\"\n");
}

void CudaImage::dpkg(const std::string& package, const std::string& version) {
    dpkg_status_ += "Package: " + package +
                    "\nStatus: install ok installed\nArchitecture: amd64\nVersion: " + version +
                    "\nDescription: test\n\n";
}

void CudaImage::glibc() { fs_.add_host_glibc(); }

void CudaImage::cuda_toolkit(const std::string& version) {
    auto parts = version.substr(0, version.find('.', version.find('.') + 1));  // "12.1"
    auto major = version.substr(0, version.find('.'));
    std::string root = "/usr/local/cuda-" + parts;
    std::string lib = root + "/targets/x86_64-linux/lib";
    // CUDA 11's runtime soname is libcudart.so.11.0; from 12 on it is the bare major.
    std::string soname = major == "11" ? "libcudart.so.11.0" : "libcudart.so." + major;
    fs_.lib(lib + "/libcudart.so." + version, soname);
    fs_.symlink(lib + "/" + soname, "libcudart.so." + version);
    fs_.symlink(root + "/lib64", "targets/x86_64-linux/lib");
    fs_.write(root + "/version.json",
              "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"" + version +
                  "\"}, \"cuda_cudart\": {\"name\": \"CUDA Runtime (cudart)\", \"version\": \"" +
                  version + "\"}}\n");
    fs_.symlink("/usr/local/cuda", "cuda-" + parts);
    fs_.write("/etc/ld.so.conf.d/000_cuda.conf", "/usr/local/cuda/targets/x86_64-linux/lib\n");
}

namespace {

// Stand-ins for what a cuDNN install holds beside its main library: cuDNN 9's shim dlopen()s
// all seven sub-libraries (CUV019); the other majors' fixtures keep one.
std::vector<std::string> sub_libraries(const std::string& major) {
    if (major != "9") return {"libcudnn_ops_infer"};
    return {"libcudnn_graph",
            "libcudnn_engines_precompiled",
            "libcudnn_engines_runtime_compiled",
            "libcudnn_heuristic",
            "libcudnn_ops",
            "libcudnn_cnn",
            "libcudnn_adv"};
}

}  // namespace

void CudaImage::cudnn(const std::string& dir, const std::string& version,
                      const std::string& dpkg_version, const std::string& sub_version,
                      const std::vector<std::string>& needs) {
    auto major = version.substr(0, version.find('.'));
    fs_.lib(dir + "/libcudnn.so." + version, "libcudnn.so." + major, needs);
    fs_.symlink(dir + "/libcudnn.so." + major, "libcudnn.so." + version);
    auto sub = sub_version.empty() ? version : sub_version;
    for (const auto& name : sub_libraries(major)) {
        fs_.lib(dir + "/" + name + ".so." + sub, name + ".so." + major, needs);
        fs_.symlink(dir + "/" + name + ".so." + major, name + ".so." + sub);
    }
    if (!dpkg_version.empty()) dpkg("libcudnn" + major, dpkg_version);
}

void CudaImage::cudnn_wheel(const std::string& version, int cuda_major) {
    auto major = version.substr(0, version.find('.'));
    std::string lib = site_packages + "/nvidia/cudnn/lib";
    fs_.lib(lib + "/libcudnn.so." + major, "libcudnn.so." + major);
    if (major == "9")
        for (const auto& name : sub_libraries(major))
            fs_.lib(lib + "/" + name + ".so.9", name + ".so.9");
    std::string dist = site_packages + "/nvidia_cudnn_cu" + std::to_string(cuda_major) + "-" +
                       version + ".dist-info";
    fs_.write(dist + "/METADATA", "Metadata-Version: 2.1\nName: nvidia-cudnn-cu" +
                                      std::to_string(cuda_major) + "\nVersion: " + version +
                                      "\n\n");
    fs_.write(site_packages + "/nvidia/__init__.py", "");
}

void CudaImage::torch(const std::string& version, const std::string& cuda,
                      const std::vector<std::string>& needs) {
    std::string root = site_packages + "/torch";
    fs_.lib(root + "/lib/libtorch_cuda.so", "libtorch_cuda.so", needs,
            "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/"
            "cuda_runtime/lib'");
    fs_.write(root + "/version.py", "__version__ = '" + version +
                                        "'\ndebug = False\ncuda: Optional[str] = '" + cuda +
                                        "'\nhip: Optional[str] = None\n");
    fs_.write(root + "/__init__.py", "");
    fs_.write(site_packages + "/torch-" + version + ".dist-info/METADATA",
              "Metadata-Version: 2.1\nName: torch\nVersion: " + version + "\n\n");
}

void CudaImage::tensorflow(const std::string& version, const std::string& cuda,
                           const std::string& cudnn, const std::vector<std::string>& dlopen_names,
                           const std::vector<std::string>& needs) {
    std::string root = site_packages + "/tensorflow";
    // The names go into .rodata the way TensorFlow's dso_loader keeps them.
    auto names = fs_.host("/.src/dlopen" + std::to_string(counter_++) + ".c");
    fs::create_directories(names.parent_path());
    std::ofstream(names) << [&] {
        std::string c = "const char* const cuvet_dso_names[] = {";
        for (const auto& n : dlopen_names) c += "\"" + n + "\", ";
        return c + "0};\n";
    }();
    fs_.lib(root + "/libtensorflow_framework.so.2", "libtensorflow_framework.so.2", needs,
            names.string());
    fs::remove_all(fs_.host("/.src"));
    fs_.write(root + "/python/platform/build_info.py", "build_info = {'cuda_version': '" + cuda +
                                                           "', 'cudnn_version': '" + cudnn +
                                                           "', 'is_cuda_build': True}\n");
    fs_.write(root + "/__init__.py", "");
    fs_.write(site_packages + "/tensorflow-" + version + ".dist-info/METADATA",
              "Metadata-Version: 2.1\nName: tensorflow\nVersion: " + version + "\n\n");
}

namespace {

void collect(const fs::path& root, const fs::path& from, std::vector<TarEntry>& out) {
    std::vector<fs::directory_entry> children(fs::directory_iterator(from),
                                              fs::directory_iterator{});
    std::sort(children.begin(), children.end());
    for (const auto& child : children) {
        auto name = child.path().lexically_relative(root).string();
        if (child.is_symlink()) {
            out.push_back(soft_link(name, fs::read_symlink(child.path()).string()));
        } else if (child.is_directory()) {
            out.push_back(dir(name));
            collect(root, child.path(), out);
        } else {
            std::ifstream in(child.path(), std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
            out.push_back(file(name, bytes, 0755));
        }
    }
}

}  // namespace

Layer CudaImage::layer() {
    if (!dpkg_status_.empty()) fs_.write("/var/lib/dpkg/status", dpkg_status_);
    Layer layer;
    layer.created_by = "/bin/sh -c #(nop) ADD dir:cuvet-test in / ";
    collect(fs_.root(), fs_.root(), layer.entries);
    return layer;
}

fs::path CudaImage::write() {
    ImageSpec spec;
    spec.env = env;
    spec.architecture = architecture;
    spec.entrypoint = entrypoint;
    spec.cmd = cmd;
    spec.working_dir = working_dir;
    spec.layers = base_layers;
    spec.layers.push_back(layer());
    auto path = out_.path() / "image.tar";
    docker_archive({spec}).write_tar(path);
    return path;
}

std::vector<report::Finding> validate_findings(const fs::path& image,
                                               const stack::Targets& targets) {
    static const rules::Database db = rules::Database::load();
    validate::Options options;
    options.targets = targets;
    return validate::validate(image.string(), options, db, config::Config{}).findings;
}

std::multiset<std::string> ids_of(const std::vector<report::Finding>& findings) {
    std::multiset<std::string> ids;
    for (const auto& f : findings) ids.insert(f.id);
    return ids;
}

std::string describe_findings(const std::vector<report::Finding>& findings) {
    std::string out;
    for (const auto& f : findings) out += f.id + ": " + f.message + "\n";
    return out.empty() ? "(no findings)" : out;
}

}  // namespace cuvet::test
