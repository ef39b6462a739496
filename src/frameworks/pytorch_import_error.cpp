// `import torch` without a library torch._C needs: Python raises ImportError with dlerror()'s
// text, which names the first library missing in ld.so's walk (torch 2.11 on the H100:
// testdata/gpu/agreement/run6). When libtorch_global_deps.so misses one already, torch's own
// preloading raises a ValueError naming sys.path instead, so nothing is quoted then.
#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {

std::string pytorch_import_error(const stack::Stack& stack, const stack::FrameworkInstall& torch,
                                 const std::string& library) {
    const stack::ElfObject* module = nullptr;
    const stack::ElfObject* global_deps = nullptr;
    for (const auto& o : stack.objects) {
        const auto slash = o.path.rfind('/');
        if (o.path.compare(0, slash, torch.root) == 0 && slash == torch.root.size() &&
            o.path.compare(slash + 1, 3, "_C.") == 0)
            module = &o;
        if (o.path == torch.root + "/lib/libtorch_global_deps.so") global_deps = &o;
    }
    if (module == nullptr || (global_deps && !first_unresolved(stack, *global_deps).empty()) ||
        first_unresolved(stack, *module) != library)
        return "";
    return "import torch raises \"ImportError: " + library +
           ": cannot open shared object file: No such file or directory\"";
}

}  // namespace cuvet::frameworks::detail
