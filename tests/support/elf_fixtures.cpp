#include "support/elf_fixtures.hpp"

#include "support/process.hpp"

namespace cuvet::test {
namespace {

// libbase defines two versions and a local helper that must stay unexported.
constexpr const char* base_c = R"(
int base_fn(int x) { return x + 1; }
int base_fn2(int x) { return x * 2; }
int base_hidden(int x) { return x - 1; }
)";
constexpr const char* base_map = R"(
BASE_1.0 { global: base_fn; local: *; };
BASE_2.0 { global: base_fn2; } BASE_1.0;
)";
// libuser imports base_fn/base_fn2 (verneed on libbase.so.1) and printf (GLIBC),
// and names two libraries it would dlopen.
constexpr const char* user_c = R"(
#include <stdio.h>
int base_fn(int);
int base_fn2(int);
const char* cuvet_dl_names[] = {"libcudnn.so.9", "/usr/lib/libnvidia-ml.so.1", "libcudnn.so.9",
                                "libcudnnx.soname", "liblapack.so.3"};
int user_fn(int x) { printf("%d\n", x); return base_fn(x) + base_fn2(x); }
__attribute__((weak)) int user_weak(void) { return 7; }
)";
constexpr const char* run_c = "int run_fn(void) { return 3; }\n";
constexpr const char* m32_c = "int base_fn2(int);\nint m32_fn(int x) { return base_fn2(x); }\n";
constexpr const char* exe_c = "int user_fn(int);\nint main(void) { return user_fn(1) == 0; }\n";
constexpr const char* kern_cu = R"(
__global__ void cuvet_kernel(float* x) { x[threadIdx.x] *= 2.0f; }
extern "C" void cuvet_launch(float* x) { cuvet_kernel<<<1, 32>>>(x); }
)";

bool compile(const std::string& command, std::string& error) {
    auto result = run_shell(command);
    if (result.exit_code != 0) {
        error = command + ": " + result.err;
        return false;
    }
    return true;
}

void build(ElfFixtures& f) {
    const auto& d = f.dir.path();
    const std::string q = shell_quote(d.string());
    write_file(d / "base.c", base_c);
    write_file(d / "base.map", base_map);
    write_file(d / "user.c", user_c);
    write_file(d / "run.c", run_c);
    write_file(d / "exe.c", exe_c);
    f.base = d / "libbase.so";
    f.user = d / "libuser.so";
    f.runpath = d / "librun.so";
    f.exe = d / "exe";
    std::string& e = f.error;
    if (!compile("cd " + q +
                     " && gcc -shared -fPIC -o libbase.so base.c -Wl,-soname,libbase.so.1"
                     " -Wl,--version-script=base.map",
                 e) ||
        !compile("cd " + q +
                     " && gcc -shared -fPIC -o libuser.so user.c -Wl,-soname,libuser.so.2"
                     " -L. -lbase -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/lib:/opt/cuvet'",
                 e) ||
        !compile("cd " + q +
                     " && gcc -shared -fPIC -o librun.so run.c -Wl,-soname,librun.so"
                     " -Wl,--enable-new-dtags -Wl,-rpath,/opt/run:/opt/run2",
                 e) ||
        !compile("cd " + q + " && gcc -o exe exe.c -L. -luser -lbase -Wl,-rpath-link,.", e)) {
        return;
    }
    std::string ignored;
    write_file(d / "m32.c", m32_c);
    if (compile("cd " + q +
                    " && gcc -m32 -nostdlib -shared -fPIC -o libbase32.so base.c"
                    " -Wl,-soname,libbase32.so.1 -Wl,--version-script=base.map",
                ignored) &&
        compile(
            "cd " + q +
                " && gcc -m32 -nostdlib -shared -fPIC -o libm32.so m32.c"
                " -Wl,-soname,libm32.so -L. -lbase32 -Wl,--disable-new-dtags -Wl,-rpath,/opt/m32",
            ignored)) {
        f.lib32 = d / "libm32.so";
        f.lib32_base = d / "libbase32.so";
    }
    const std::string nvcc = find_nvcc();
    if (!nvcc.empty()) {
        write_file(d / "kern.cu", kern_cu);
        if (compile("cd " + q + " && " + shell_quote(nvcc) +
                        " -shared -Xcompiler -fPIC -o libkern.so kern.cu"
                        " -gencode arch=compute_80,code=sm_80"
                        " -gencode arch=compute_90,code=compute_90",
                    ignored)) {
            f.cuda = d / "libkern.so";
        } else {
            f.error = ignored;  // nvcc exists but fails: that is a real failure
        }
    }
}

}  // namespace

std::string find_nvcc() {
    if (have_program("nvcc")) return "nvcc";
    if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
    return "";
}

const ElfFixtures& elf_fixtures() {
    static ElfFixtures fixtures;
    static const bool built = (build(fixtures), true);
    static_cast<void>(built);
    return fixtures;
}

}  // namespace cuvet::test
