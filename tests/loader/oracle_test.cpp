// The emulation against the real thing: root file systems holding the build
// machine's glibc and libraries compiled here, listed by the real ld.so in a
// chroot and by cuvet's loader reading the same dir as a rootfs image. Every
// case must agree on every name and path, first without an ld.so.cache, then
// with one built by the real `ldconfig -r`.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "support/process.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

namespace {

using namespace cuvet;
using Listing = std::vector<std::pair<std::string, std::string>>;  // name -> path | "not found"

// What the build machine's ld.so searches: glibc-hwcaps levels and AT_PLATFORM.
struct HostLoader {
    std::vector<std::string> hwcaps;
    std::string platform = "x86_64";
};

HostLoader host_loader() {
    HostLoader host;
    auto help = test::run_shell("/lib64/ld-linux-x86-64.so.2 --help").out;
    std::istringstream lines(help);
    bool in_hwcaps = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.find("Subdirectories of glibc-hwcaps") != std::string::npos) {
            in_hwcaps = true;
            continue;
        }
        if (line.empty()) in_hwcaps = false;
        std::istringstream words(line);
        std::string name;
        words >> name;
        if (in_hwcaps && line.find("supported, searched") != std::string::npos)
            host.hwcaps.push_back(name);
        if (line.find("(AT_PLATFORM; supported") != std::string::npos) host.platform = name;
    }
    return host;
}

Listing parse_list(const std::string& out) {
    Listing listing;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        auto arrow = line.find(" => ");
        if (arrow == std::string::npos) continue;  // linux-vdso, ld.so itself
        auto name = line.substr(line.find_first_not_of(" \t"), 0);
        name = line.substr(line.find_first_not_of(" \t"), arrow - line.find_first_not_of(" \t"));
        auto rest = line.substr(arrow + 4);
        auto path = rest.substr(0, rest.find(" (0x"));
        listing.emplace_back(name, path);
    }
    return listing;
}

// A static chroot-and-exec helper: the LD_TRACE_LOADED_OBJECTS=1 that makes
// ld.so list (as the ldd script does) must reach ld.so inside the root, not
// a dynamically linked chroot(1) outside it. `ld.so --list` is no substitute:
// it stops at the first missing indirect dependency before printing.
std::string chroot_helper(const test::TempDir& dir) {
    auto src = dir / "chroot_exec.c";
    auto bin = dir / "chroot_exec";
    test::write_file(src,
                     "#include <unistd.h>\n"
                     "extern char **environ;\n"
                     "int main(int argc, char **argv) {\n"
                     "  if (argc < 3 || chroot(argv[1]) != 0 || chdir(\"/\") != 0) return 126;\n"
                     "  execve(argv[2], argv + 2, environ);\n"
                     "  return 127;\n"
                     "}\n");
    auto r = test::run_shell("gcc -static -O1 -o " + test::shell_quote(bin.string()) + " " +
                             test::shell_quote(src.string()));
    return r.exit_code == 0 ? bin.string() : "";
}

Listing real_list(const std::string& helper, const test::Rootfs& root, const std::string& program,
                  const std::string& llp) {
    std::string env = llp.empty() ? "" : "LD_LIBRARY_PATH=" + test::shell_quote(llp) + " ";
    auto r = test::run_shell("env -i LD_TRACE_LOADED_OBJECTS=1 " + env + test::shell_quote(helper) +
                             " " + test::shell_quote(root.root().string()) +
                             " /lib64/ld-linux-x86-64.so.2 " + test::shell_quote(program));
    INFO("ld.so " << program << ": " << r.err);
    CHECK(r.exit_code == 0);
    return parse_list(r.out);
}

Listing emulated_list(const inventory::Analysis& analysis, const HostLoader& host,
                      const std::string& program, const std::string& llp) {
    loader::Options options;
    options.hwcaps = host.hwcaps;
    options.platform = host.platform;
    options.ld_library_path = llp;
    options.runtime_start = loader::RuntimeStart::none;  // the image's cache as it is
    options.conf_without_cache = false;                  // exactly what a plain ld.so does
    options.host_driver = false;
    auto graph = loader::Loader(analysis.files(), options).resolve(program);
    Listing listing;
    // ld.so prints the link map in load order, a missing library where it
    // was first looked for; each object under the first name it was loaded by.
    std::vector<bool> printed(graph.objects.size(), false);
    for (const auto& r : graph.resolutions) {
        if (r.status == loader::Status::not_found) {
            listing.emplace_back(r.name, "not found");
        } else if (r.object && !printed[*r.object] && !graph.objects[*r.object].interpreter) {
            printed[*r.object] = true;
            listing.emplace_back(graph.objects[*r.object].names[0], graph.objects[*r.object].path);
        }
    }
    return listing;
}

std::string show(const Listing& listing) {
    std::string out;
    for (const auto& [name, path] : listing) out += "  " + name + " => " + path + "\n";
    return out;
}

// Same entries; the order of found objects must match too.
void check_same(const Listing& real, const Listing& emulated) {
    INFO("real ld.so:\n" << show(real) << "cuvet:\n" << show(emulated));
    auto sorted = [](Listing l) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        return l;
    };
    CHECK(sorted(real) == sorted(emulated));
    auto found = [](const Listing& l) {
        Listing out;
        for (const auto& item : l)
            if (item.second != "not found") out.push_back(item);
        return out;
    };
    CHECK(found(real) == found(emulated));
}

void copy_with_machine(const test::Rootfs& root, const std::string& from, const std::string& to,
                       std::uint16_t machine) {
    std::filesystem::create_directories(root.host(to).parent_path());
    std::filesystem::copy_file(root.host(from), root.host(to));
    std::fstream f(root.host(to), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(18);  // e_machine
    f.put(char(machine & 0xff));
    f.put(char(machine >> 8));
}

struct Case {
    std::string program, ld_library_path;
    // What the real ld.so must say, so the fixture keeps testing what it claims.
    std::vector<std::pair<std::string, std::string>> pinned;
};

const std::vector<Case> cases = {
    {"/app/rpath_main", "", {{"libb.so.1", "/opt/b/libb.so.1"}}},  // RPATH inherited
    {"/app/rpath_main", "/opt/l", {{"libx.so.1", "/opt/r/libx.so.1"}}},
    {"/app/runpath_main", "", {{"libb.so.1", "not found"}}},  // RUNPATH not inherited
    {"/app/runpath_main", "/opt/l:/opt/b", {{"libx.so.1", "/opt/l/libx.so.1"}}},
    {"/app/runpath_main", "$ORIGIN/../opt/l", {{"libx.so.1", "/app/../opt/l/libx.so.1"}}},
    {"/app/origin/bin/main",
     "",
     {{"libcudnn.so.9", "/sp/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9"},
      {"libdep.so", "not found"}}},  // $ORIGIN of a symlinked library is the link's dir
    {"/app/missing_main", "", {{"libgone.so.1", "not found"}}},
    {"/app/wrong_main", "", {{"libx.so.1", "/opt/l/libx.so.1"}}},
    {"/app/cache_main", "", {}},
    {"/app/dst_main", "", {{"liblib.so", "/opt/lib/x86_64-linux-gnu/liblib.so"}}},
};

}  // namespace

TEST_CASE("loader oracle: cuvet agrees with the real ld.so", "[loader][oracle]") {
    if (geteuid() != 0 || !test::have_program("gcc") || !test::have_program("chroot") ||
        !test::have_program("ldconfig")) {
        CUVET_SKIP("skipped: needs root, gcc, chroot and ldconfig");
    }
    test::Rootfs root;
    if (!root.add_host_glibc()) {
        CUVET_SKIP("skipped: no x86-64 glibc on this machine");
    }
    auto host = host_loader();
    test::TempDir tools;
    auto helper = chroot_helper(tools);
    if (helper.empty()) {
        CUVET_SKIP("skipped: cannot link a static helper (no libc.a)");
    }
    auto no_new = std::string(" -Wl,--disable-new-dtags");
    auto new_tags = std::string(" -Wl,--enable-new-dtags");

    // Same soname in several dirs: which one wins is the question.
    for (auto dir : {"/opt/r", "/opt/u", "/opt/l"})
        root.lib(std::string(dir) + "/libx.so.1", "libx.so.1");
    root.lib("/opt/b/libb.so.1", "libb.so.1");
    root.lib("/opt/a/liba.so.1", "liba.so.1", {"/opt/b/libb.so.1"});
    // RPATH (inherited by liba, which finds libb through it) vs RUNPATH (not).
    root.exe("/app/rpath_main", {"/opt/r/libx.so.1", "/opt/a/liba.so.1"},
             "-Wl,-rpath,/opt/r:/opt/a:/opt/b" + no_new);
    root.exe("/app/runpath_main", {"/opt/u/libx.so.1", "/opt/a/liba.so.1"},
             "-Wl,-rpath,/opt/u:/opt/a" + new_tags);

    // $ORIGIN, a torch-wheel layout, and a library reached through a file symlink.
    root.lib("/app/origin/lib/libo.so", "libo.so");
    root.lib("/sp/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    root.lib("/sp/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
             {"/sp/nvidia/cudnn/lib/libcudnn.so.9"},
             "-Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'" + new_tags);
    root.lib("/opt/real/dep/libdep.so", "libdep.so");
    root.lib("/opt/real/libs.so.1", "libs.so.1", {"/opt/real/dep/libdep.so"},
             "-Wl,-rpath,'$ORIGIN/dep'" + no_new);
    root.symlink("/opt/flink/libs.so.1", "../real/libs.so.1");
    root.exe("/app/origin/bin/main",
             {"/app/origin/lib/libo.so", "/sp/torch/lib/libtorch_cuda.so", "/opt/real/libs.so.1"},
             "-Wl,-rpath,'$ORIGIN/../lib:/sp/torch/lib:/opt/flink'" + no_new);

    // A library that is gone at run time.
    root.lib("/opt/gone/libgone.so.1", "libgone.so.1");
    root.exe("/app/missing_main", {"/opt/gone/libgone.so.1", "/opt/r/libx.so.1"},
             "-Wl,-rpath,/opt/r" + no_new);
    std::filesystem::remove(root.host("/opt/gone/libgone.so.1"));

    // Wrong class and wrong machine earlier in the path are skipped.
    std::string m32 = "gcc -m32 -shared -nostdlib -fPIC -Wl,-soname,libx.so.1 -o " +
                      test::shell_quote(root.host("/opt/w32/libx.so.1").string()) +
                      " -x c /dev/null";
    std::filesystem::create_directories(root.host("/opt/w32"));
    if (test::run_shell(m32).exit_code != 0)
        WARN("no 32-bit toolchain: the wrong-class dir stays empty");
    copy_with_machine(root, "/opt/r/libx.so.1", "/opt/warm/libx.so.1", 183);  // EM_AARCH64
    root.exe("/app/wrong_main", {"/opt/r/libx.so.1"},
             "-Wl,-rpath,/opt/w32:/opt/warm:/opt/l" + no_new);

    // Found only through ld.so.cache (the conf dir, a glibc-hwcaps copy) or the default dirs.
    root.lib("/opt/cached/libc1.so.1", "libc1.so.1");
    root.lib("/opt/cached/glibc-hwcaps/x86-64-v2/libc1.so.1", "libc1.so.1");
    root.lib("/usr/lib/x86_64-linux-gnu/libdef.so.1", "libdef.so.1");
    root.write("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    root.write("/etc/ld.so.conf.d/cached.conf", "/opt/cached\n");
    root.exe("/app/cache_main",
             {"/opt/cached/libc1.so.1", "/usr/lib/x86_64-linux-gnu/libdef.so.1"});

    // $LIB and $PLATFORM.
    root.lib("/opt/lib/x86_64-linux-gnu/liblib.so", "liblib.so");
    root.lib("/opt/" + host.platform + "/libplat.so", "libplat.so");
    root.exe("/app/dst_main",
             {"/opt/lib/x86_64-linux-gnu/liblib.so", "/opt/" + host.platform + "/libplat.so"},
             "-Wl,-rpath,'/opt/$LIB:/opt/${PLATFORM}'" + no_new);
    REQUIRE(root.error().empty());

    // Containers without CAP_SYS_CHROOT: nothing to compare against.
    auto probe =
        test::run_shell(test::shell_quote(helper) + " " + test::shell_quote(root.root().string()) +
                        " /lib64/ld-linux-x86-64.so.2 --version");
    if (probe.exit_code != 0) {
        CUVET_SKIP("skipped: cannot chroot here (" << probe.exit_code << ")");
    }

    std::vector<std::string> programs;
    for (const auto& c : cases) programs.push_back(c.program);
    auto analyze = [&] {
        auto image = image::open_image(root.root(), {});
        inventory::AnalyzeOptions options;
        options.extra_elf_paths = programs;
        return inventory::analyze(*image, options);
    };

    for (bool with_cache : {false, true}) {
        if (with_cache) {
            auto r = test::run_shell("ldconfig -r " + test::shell_quote(root.root().string()));
            REQUIRE(r.exit_code == 0);
        }
        auto analysis = analyze();
        for (const auto& c : cases) {
            INFO((with_cache ? "with" : "without")
                 << " ld.so.cache: " << c.program << " LD_LIBRARY_PATH=" << c.ld_library_path);
            auto real = real_list(helper, root, c.program, c.ld_library_path);
            REQUIRE_FALSE(real.empty());
            for (const auto& pin : c.pinned)
                CHECK(std::find(real.begin(), real.end(), pin) != real.end());
            check_same(real, emulated_list(analysis, host, c.program, c.ld_library_path));
        }
    }
}
