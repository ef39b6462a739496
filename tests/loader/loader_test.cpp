// The search order on trees built by hand: each case isolates one rule of
// glibc's _dl_map_object. tests/loader/oracle_test.cpp checks the same rules
// against the real ld.so.
#include "cuvet/loader/loader.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/loader/driver_libs.hpp"

namespace {

using namespace cuvet;
using loader::Rule;
using loader::Status;
using loader::Verdict;

constexpr std::uint16_t em_x86_64 = 62, em_aarch64 = 183;

// A hand-made image: files with ELF facts, links, Env.
struct FakeImage {
    image::FileTree tree;
    std::map<std::string, elf::ElfInfo, std::less<>> elfs;
    std::set<std::string, std::less<>> not_elf;
    std::map<std::string, std::string, std::less<>> texts;
    std::vector<std::string> env;

    void dirs_for(const std::string& path) {
        for (auto slash = path.find('/', 1); slash != std::string::npos;
             slash = path.find('/', slash + 1)) {
            auto dir = path.substr(0, slash);
            if (tree.find(dir) == nullptr) {
                image::FileEntry e;
                e.path = dir;
                e.type = image::FileType::directory;
                tree.put(e);
            }
        }
    }
    elf::ElfInfo& lib(const std::string& path, const std::string& soname,
                      std::vector<std::string> needed = {}) {
        dirs_for(path);
        image::FileEntry e;
        e.path = path;
        e.size = 1000;
        tree.put(e);
        auto& info = elfs[path];
        info.machine = em_x86_64;
        info.type = 3;
        info.soname = soname;
        info.needed = std::move(needed);
        return info;
    }
    void link(const std::string& path, const std::string& target) {
        dirs_for(path);
        image::FileEntry e;
        e.path = path;
        e.type = image::FileType::symlink;
        e.link_target = target;
        tree.put(e);
    }
    void text(const std::string& path, const std::string& bytes) {
        dirs_for(path);
        image::FileEntry e;
        e.path = path;
        e.size = bytes.size();
        tree.put(e);
        texts[path] = bytes;
    }
    loader::ImageFiles files() const { return {&tree, &elfs, &not_elf, &texts, env}; }
    loader::Graph resolve(const std::string& program, loader::Options options = {}) const {
        return loader::Loader(files(), options).resolve(program);
    }
};

void rpath(elf::ElfInfo& info, std::vector<std::string> dirs) {
    info.rpath = std::move(dirs);
    info.has_rpath = true;
}
void runpath(elf::ElfInfo& info, std::vector<std::string> dirs) {
    info.runpath = std::move(dirs);
    info.has_runpath = true;
}

const loader::Resolution& find(const loader::Graph& g, const std::string& name,
                               std::size_t nth = 0) {
    for (const auto& r : g.resolutions)
        if (r.name == name && nth-- == 0) return r;
    FAIL("no resolution for " << name);
    throw;
}

// A Debian-like base: glibc in the multiarch dir, /lib64 link for ld.so.
FakeImage debian() {
    FakeImage img;
    img.lib("/usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6", {"ld-linux-x86-64.so.2"});
    img.lib("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "ld-linux-x86-64.so.2");
    img.link("/lib", "usr/lib");
    img.link("/lib64", "usr/lib64");
    img.link("/usr/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
    return img;
}

}  // namespace

TEST_CASE("loader: default dirs of a Debian image and the interpreter", "[loader]") {
    auto img = debian();
    img.lib("/app/main", "", {"libc.so.6"}).type = 2;
    auto g = img.resolve("/app/main");
    const auto& libc = find(g, "libc.so.6");
    CHECK(libc.status == Status::found);
    CHECK(libc.rule == Rule::default_dirs);
    CHECK(libc.path == "/lib/x86_64-linux-gnu/libc.so.6");
    CHECK(libc.file == "/usr/lib/x86_64-linux-gnu/libc.so.6");
    // /usr/lib/x86_64-linux-gnu is reached through /lib -> usr/lib first:
    // the same file is no shadowed copy.
    CHECK(libc.shadowed.empty());
    const auto& ld = find(g, "ld-linux-x86-64.so.2");
    CHECK(ld.rule == Rule::already_loaded);
    CHECK(g.ok());
    CHECK(g.lib_dst == "lib/x86_64-linux-gnu");
    // hwcaps subdirectories are tried before each dir.
    REQUIRE(libc.trace.size() >= 3);
    CHECK(libc.trace[0].path == "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libc.so.6");
    CHECK(libc.trace[0].verdict == Verdict::absent);
}

TEST_CASE("loader: RPATH before LD_LIBRARY_PATH before RUNPATH", "[loader]") {
    auto img = debian();
    for (auto dir : {"/r", "/l", "/u"}) img.lib(std::string(dir) + "/libx.so.1", "libx.so.1");
    img.env = {"LD_LIBRARY_PATH=/l"};
    SECTION("RPATH wins and the rest are shadowed") {
        rpath(img.lib("/app/main", "", {"libx.so.1"}), {"/r"});
        auto g = img.resolve("/app/main");
        const auto& x = find(g, "libx.so.1");
        CHECK(x.rule == Rule::rpath);
        CHECK(x.source == "/app/main");
        CHECK(x.path == "/r/libx.so.1");
        CHECK(x.shadowed == std::vector<std::string>{"/l/libx.so.1"});
    }
    SECTION("RUNPATH disables RPATH and comes after LD_LIBRARY_PATH") {
        auto& main = img.lib("/app/main", "", {"libx.so.1"});
        rpath(main, {"/r"});
        runpath(main, {"/u"});
        auto g = img.resolve("/app/main");
        const auto& x = find(g, "libx.so.1");
        CHECK(x.rule == Rule::ld_library_path);
        CHECK(x.path == "/l/libx.so.1");
        CHECK(x.shadowed == std::vector<std::string>{"/u/libx.so.1"});
    }
    SECTION("an Options override replaces the image Env") {
        runpath(img.lib("/app/main", "", {"libx.so.1"}), {"/u"});
        loader::Options options;
        options.ld_library_path = "";
        auto g = img.resolve("/app/main", options);
        CHECK(find(g, "libx.so.1").rule == Rule::runpath);
    }
}

TEST_CASE("loader: RPATH is inherited by dependencies, RUNPATH is not", "[loader]") {
    auto img = debian();
    img.lib("/deps/liba.so.1", "liba.so.1", {"libb.so.1"});
    img.lib("/deps/libb.so.1", "libb.so.1");
    SECTION("RPATH of the program serves its dependency's dependency") {
        rpath(img.lib("/app/main", "", {"liba.so.1"}), {"/deps"});
        auto g = img.resolve("/app/main");
        const auto& b = find(g, "libb.so.1");
        CHECK(b.status == Status::found);
        CHECK(b.rule == Rule::rpath);
        CHECK(b.source == "/app/main");
        CHECK(g.objects[*b.object].loader == *find(g, "liba.so.1").object);
    }
    SECTION("RUNPATH of the program does not") {
        runpath(img.lib("/app/main", "", {"liba.so.1"}), {"/deps"});
        auto g = img.resolve("/app/main");
        CHECK(find(g, "liba.so.1").rule == Rule::runpath);
        const auto& b = find(g, "libb.so.1");
        CHECK(b.status == Status::not_found);
        CHECK_FALSE(g.ok());
        bool tried_deps = false;
        for (const auto& a : b.trace) tried_deps |= a.path.rfind("/deps/", 0) == 0;
        CHECK_FALSE(tried_deps);
    }
    SECTION("a dependency with RUNPATH stops using the inherited RPATH") {
        rpath(img.lib("/app/main", "", {"liba.so.1"}), {"/deps"});
        runpath(img.elfs["/deps/liba.so.1"], {"/nowhere"});
        auto g = img.resolve("/app/main");
        CHECK(find(g, "libb.so.1").status == Status::not_found);
    }
}

TEST_CASE("loader: $ORIGIN, $LIB and $PLATFORM", "[loader]") {
    auto img = debian();
    auto& torch = img.lib("/sp/torch/lib/libtorch_cuda.so", "libtorch_cuda.so", {"libcudnn.so.9"});
    rpath(torch, {"$ORIGIN/../../nvidia/cudnn/lib", "$ORIGIN"});
    img.lib("/sp/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9");
    img.lib("/opt/lib/x86_64-linux-gnu/liblib.so", "liblib.so");
    img.lib("/opt/haswell/libplat.so", "libplat.so");
    rpath(img.lib("/app/main", "", {"libtorch_cuda.so", "liblib.so", "libplat.so"}),
          {"/sp/torch/lib", "/opt/$LIB", "/opt/${PLATFORM}"});
    loader::Options options;
    options.platform = "haswell";
    auto g = img.resolve("/app/main", options);
    const auto& cudnn = find(g, "libcudnn.so.9");
    CHECK(cudnn.rule == Rule::rpath);
    CHECK(cudnn.source == "/sp/torch/lib/libtorch_cuda.so");
    CHECK(cudnn.path == "/sp/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9");
    CHECK(cudnn.file == "/sp/nvidia/cudnn/lib/libcudnn.so.9");
    CHECK(find(g, "liblib.so").path == "/opt/lib/x86_64-linux-gnu/liblib.so");
    CHECK(find(g, "libplat.so").path == "/opt/haswell/libplat.so");
}

TEST_CASE("loader: wrong class and machine are skipped, not-ELF stops", "[loader]") {
    auto img = debian();
    img.lib("/first/libx.so.1", "libx.so.1").is_64bit = false;
    img.lib("/second/libx.so.1", "libx.so.1").machine = em_aarch64;
    img.lib("/third/libx.so.1", "libx.so.1");
    rpath(img.lib("/app/main", "", {"libx.so.1"}), {"/first", "/second", "/third"});
    auto g = img.resolve("/app/main");
    const auto& x = find(g, "libx.so.1");
    CHECK(x.path == "/third/libx.so.1");
    std::vector<Verdict> verdicts;
    for (const auto& a : x.trace)
        if (a.verdict != Verdict::absent) verdicts.push_back(a.verdict);
    CHECK(verdicts ==
          std::vector<Verdict>{Verdict::wrong_class, Verdict::wrong_machine, Verdict::loaded});

    img.elfs.erase("/first/libx.so.1");
    img.not_elf.insert("/first/libx.so.1");
    auto g2 = img.resolve("/app/main");
    CHECK(find(g2, "libx.so.1").status == Status::error);
}

TEST_CASE("loader: already loaded by SONAME and by file", "[loader]") {
    auto img = debian();
    img.lib("/a/libreal.so.1.2", "libreal.so.1", {});
    img.link("/a/libreal.so.1", "libreal.so.1.2");
    img.link("/a/libalias.so", "libreal.so.1.2");
    img.lib("/a/libuser.so", "libuser.so", {"libreal.so.1"});
    rpath(img.lib("/app/main", "", {"libalias.so", "libuser.so"}), {"/a"});
    auto g = img.resolve("/app/main");
    const auto& alias = find(g, "libalias.so");
    const auto& real = find(g, "libreal.so.1");
    CHECK(real.rule == Rule::already_loaded);
    CHECK(real.object == alias.object);
    CHECK(real.path == "/a/libalias.so");
}

TEST_CASE("loader: host driver libraries", "[loader]") {
    CHECK(loader::is_host_driver_library("libcuda.so.1"));
    CHECK(loader::is_host_driver_library("libnvidia-ml.so.1"));
    CHECK(loader::is_host_driver_library("libnvidia-ptxjitcompiler.so.1"));
    CHECK_FALSE(loader::is_host_driver_library("libcudart.so.12"));
    CHECK_FALSE(loader::is_host_driver_library("libcudadebuggerx.so"));

    auto img = debian();
    img.lib("/app/main", "", {"libcuda.so.1"});
    SECTION("absent from the image: provided by the host") {
        auto g = img.resolve("/app/main");
        const auto& cuda = find(g, "libcuda.so.1");
        CHECK(cuda.status == Status::host_driver);
        CHECK(cuda.image_copy.empty());
        CHECK(g.ok());
        loader::Options plain;
        plain.host_driver = false;
        CHECK(find(img.resolve("/app/main", plain), "libcuda.so.1").status == Status::not_found);
    }
    SECTION("a copy in the system dir is replaced by the mount") {
        img.lib("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.1");
        auto g = img.resolve("/app/main");
        const auto& cuda = find(g, "libcuda.so.1");
        CHECK(cuda.status == Status::host_driver);
        CHECK(cuda.image_copy == "/lib/x86_64-linux-gnu/libcuda.so.1");
    }
    SECTION("a stub on LD_LIBRARY_PATH shadows the host driver") {
        img.lib("/usr/local/cuda/lib64/stubs/libcuda.so", "libcuda.so.1");
        img.link("/usr/local/cuda/lib64/stubs/libcuda.so.1", "libcuda.so");
        img.env = {"LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs"};
        auto g = img.resolve("/app/main");
        const auto& cuda = find(g, "libcuda.so.1");
        CHECK(cuda.status == Status::found);
        CHECK(cuda.rule == Rule::ld_library_path);
        CHECK(cuda.image_copy == "/usr/local/cuda/lib64/stubs/libcuda.so.1");
    }
}

TEST_CASE("loader: ld.so.conf dirs serve when the image has no cache", "[loader]") {
    auto img = debian();
    img.text("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    img.text("/etc/ld.so.conf.d/cuda.conf", "# CUDA\n/usr/local/cuda/lib64\n");
    img.text("/etc/ld.so.conf.d/zz.conf", "/opt/a:/opt/b\n");
    img.lib("/usr/local/cuda/lib64/libcudart.so.12.4.127", "libcudart.so.12");
    img.lib("/app/main", "", {"libcudart.so.12"});
    auto conf = loader::read_ld_conf(img.files());
    REQUIRE(conf.dirs.size() == 3);
    CHECK(conf.dirs[0].dir == "/usr/local/cuda/lib64");
    CHECK(conf.dirs[0].source == "/etc/ld.so.conf.d/cuda.conf");
    CHECK(conf.dirs[2].dir == "/opt/b");

    auto g = img.resolve("/app/main");
    const auto& rt = find(g, "libcudart.so.12");
    CHECK(rt.rule == Rule::ld_conf);
    CHECK(rt.path == "/usr/local/cuda/lib64/libcudart.so.12.4.127");
    CHECK(rt.start_note.empty());  // no cache at all: the conf dirs were always assumed
    loader::Options plain;
    plain.runtime_start = loader::RuntimeStart::none;
    plain.conf_without_cache = false;
    CHECK(find(img.resolve("/app/main", plain), "libcudart.so.12").status == Status::not_found);
}

TEST_CASE("loader: the program must be an ELF the scan read", "[loader]") {
    auto img = debian();
    img.text("/app/script", "#!/bin/sh\n");
    CHECK_THROWS_AS(img.resolve("/app/script"), cuvet::Error);
    CHECK_THROWS_AS(img.resolve("/app/missing"), cuvet::Error);
}

TEST_CASE("loader: extra names per file are searched as its DT_NEEDED around its own", "[loader]") {
    auto img = debian();
    runpath(img.lib("/app/main", "", {"libc.so.6", "libdep.so.1"}), {"/opt/lib"});
    runpath(img.lib("/opt/lib/libdep.so.1", "libdep.so.1"), {"/opt/lib"});
    for (auto name : {"libpre.so.1", "libdl.so.1", "libsub.so.1"})
        img.lib(std::string("/opt/lib/") + name, name);
    loader::ExtraNeededByFile extra;
    extra["/app/main"] = {{"libpre.so.1"}, {"libdl.so.1"}};
    extra["/opt/lib/libdep.so.1"].after = {"libsub.so.1"};  // a dependency's own, not the program's

    auto g = loader::Loader(img.files(), {}).resolve("/app/main", extra);
    std::vector<std::string> main_needs;
    for (auto index : g.objects[0].needs) main_needs.push_back(g.resolutions[index].name);
    CHECK(main_needs ==
          std::vector<std::string>{"libpre.so.1", "libc.so.6", "libdep.so.1", "libdl.so.1"});
    CHECK(find(g, "libpre.so.1").rule == Rule::runpath);
    const auto& sub = find(g, "libsub.so.1");
    CHECK(sub.status == Status::found);
    CHECK(g.objects[sub.requester].file == "/opt/lib/libdep.so.1");
    CHECK(sub.rule == Rule::runpath);  // libdep's own RUNPATH, as for its DT_NEEDED
    CHECK(g.ok());
    // The ELF facts are not touched, and without the extras none of it loads.
    CHECK(img.elfs.at("/app/main").needed == std::vector<std::string>{"libc.so.6", "libdep.so.1"});
    auto plain = img.resolve("/app/main");
    for (const auto& r : plain.resolutions) CHECK(r.name != "libsub.so.1");
    CHECK(plain.objects[0].needs.size() == 2);
}

// What _dl_map_object prints when nothing opens: the errno of the last open() that open_path
// really made (elf/dl-load.c), not whether some copy was unreadable.
TEST_CASE("loader: the failure names the errno of ld.so's last open()", "[loader][open_failure]") {
    FakeImage img;
    img.lib("/denied/libb.so.1", "libb.so.1");
    auto& program = img.lib("/app/main", "", {"libnone.so.1", "libb.so.1"});
    program.type = 2;
    rpath(program, {"/denied", "/gone"});
    loader::Options options;
    options.open_denied = [](const std::string& file) {
        return file == "/denied/libb.so.1" ? std::string("cannot read") : std::string();
    };
    auto g = img.resolve("/app/main", options);
    REQUIRE(find(g, "libb.so.1").status == Status::not_found);
    // /gone, /lib64 and /usr/lib64 were found missing while libnone.so.1 was searched: later
    // searches skip them, so the EACCES of /denied/libb.so.1 is the last errno.
    CHECK(find(g, "libb.so.1").note ==
          "cannot read (ld.so: \"cannot open shared object file: Permission denied\")");

    // First in a fresh process the missing dirs are tried after it: ENOENT is last.
    img.elfs["/app/main"].needed = {"libb.so.1"};
    auto fresh = img.resolve("/app/main", options);
    CHECK(find(fresh, "libb.so.1").note ==
          "cannot read (ld.so: \"cannot open shared object file: No such file or directory\")");

    // A name with a slash is opened once, by open_verify.
    img.elfs["/app/main"].needed = {"/denied/libb.so.1"};
    auto by_path = img.resolve("/app/main", options);
    CHECK(find(by_path, "/denied/libb.so.1").note ==
          "cannot read (ld.so: \"cannot open shared object file: Permission denied\")");
}

TEST_CASE("loader: only the other ELF class makes \"wrong ELF class\"", "[loader][open_failure]") {
    auto img = debian();
    img.lib("/first/libx.so.1", "libx.so.1").is_64bit = false;
    img.lib("/second/libx.so.1", "libx.so.1");
    rpath(img.lib("/app/main", "", {"libx.so.1"}), {"/first", "/second"});
    loader::Options options;
    options.open_denied = [](const std::string& file) {
        return file == "/second/libx.so.1" ? std::string("cannot read") : std::string();
    };
    CHECK(find(img.resolve("/app/main", options), "libx.so.1").note ==
          "cannot read (ld.so: \"wrong ELF class: ELFCLASS32\")");
    img.elfs["/first/libx.so.1"].is_64bit = true;
    img.elfs["/first/libx.so.1"].machine = em_aarch64;
    CHECK(find(img.resolve("/app/main", options), "libx.so.1").note ==
          "cannot read (ld.so: \"cannot open shared object file: No such file or directory\")");
}

// open() of a directory succeeds; open_verify's read() then fails with EISDIR and it signals
// "cannot read file data", which ends the load: ld.so never reaches the copy after it.
TEST_CASE("loader: a directory named like the library stops the search", "[loader][open_failure]") {
    auto img = debian();
    img.dirs_for("/first/libx.so.1/");
    img.lib("/second/libx.so.1", "libx.so.1");
    rpath(img.lib("/app/main", "", {"libx.so.1"}), {"/first", "/second"});
    const auto g = img.resolve("/app/main");
    const auto& x = find(g, "libx.so.1");
    CHECK(x.status == Status::error);
    CHECK(x.path == "/first/libx.so.1");
    CHECK(x.note == "cannot read file data: Is a directory: ld.so stops here");
    CHECK_FALSE(g.ok());
}
