// What the built-in sandbox isolates, checked from inside: the image's tree
// read-only, a private /tmp, no network; and the extracted tree removed even
// when cuvet itself is killed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <thread>

#include "cuvet/sandbox/chroot_runner.hpp"
#include "support/process.hpp"
#include "support/program_rootfs.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// /bin/sh and the named tools, with their libraries.
void shell_rootfs(const fs::path& root, const std::vector<std::string>& tools) {
    for (const std::string& tool : tools) {
        const fs::path host = fs::path("/bin") / tool;
        copy_with_libraries(host, root);
        fs::create_directories(root / "bin");
        fs::copy_file(fs::canonical(host), root / "bin" / tool,
                      fs::copy_options::overwrite_existing);
    }
}

// The interfaces /proc/net/dev lists (after its two header lines).
std::vector<std::string> interfaces(const std::string& proc_net_dev) {
    std::vector<std::string> names;
    std::istringstream lines(proc_net_dev);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos || line.find('|') != std::string::npos) continue;
        std::string name = line.substr(0, colon);
        name.erase(0, name.find_first_not_of(' '));
        names.push_back(name);
    }
    return names;
}

}  // namespace

TEST_CASE("the sandbox keeps the image read-only, /tmp private and the network away",
          "[sandbox][chroot]") {
    if (!can_unshare()) {
        CUVET_SKIP("skipped: the built-in runner needs root and mount namespaces");
    }
    TempDir tmp;
    const fs::path root = tmp / "rootfs";
    shell_rootfs(root, {"sh", "cat"});
    write_file(root / "tmp/from-image", "image\n");
    sandbox::ChrootOptions options;
    options.inject_driver = false;
    options.environment = {"PATH=/bin"};
    options.timeout = std::chrono::seconds(30);
    const std::string script =
        "if echo x > /written 2>/dev/null; then echo root=writable; else echo root=read-only; fi; "
        "if [ -e /tmp/from-image ]; then echo tmp=image; else echo tmp=private; fi; "
        "echo y > /tmp/mine && echo tmp=writable; echo ---; cat /proc/net/dev";
    const sandbox::ChrootRun run =
        sandbox::run_image_program(root, {"/bin/sh", "-c", script}, options);
    INFO(run.process.out << run.process.err << run.process.setup_error);
    REQUIRE(run.process.exit_code == 0);
    CHECK_THAT(run.process.out, Catch::Contains("root=read-only"));
    CHECK_THAT(run.process.out, Catch::Contains("tmp=private"));
    CHECK_THAT(run.process.out, Catch::Contains("tmp=writable"));
    CHECK(interfaces(run.process.out.substr(run.process.out.find("---"))) ==
          std::vector<std::string>{"lo"});
    // Nothing the program wrote reached the image's tree.
    CHECK_FALSE(fs::exists(root / "written"));
    CHECK_FALSE(fs::exists(root / "tmp/mine"));
    CHECK(fs::exists(root / "tmp/from-image"));

    // The same program with the isolation turned off sees the image's /tmp and can write.
    options.private_tmp = false;
    options.read_only_root = false;
    const sandbox::ChrootRun open =
        sandbox::run_image_program(root, {"/bin/sh", "-c", script}, options);
    CHECK_THAT(open.process.out, Catch::Contains("root=writable"));
    CHECK_THAT(open.process.out, Catch::Contains("tmp=image"));
}

TEST_CASE("the extracted root file system is removed when cuvet is killed", "[sandbox][chroot]") {
    if (!can_unshare()) {
        CUVET_SKIP("skipped: the built-in runner needs root and mount namespaces");
    }
    TempDir tmp;
    shell_rootfs(tmp / "rootfs", {"sh", "sleep"});
    write_file(tmp / "hang.sh", "#!/bin/sh\nexec /bin/sleep 67\n");
    fs::permissions(tmp / "hang.sh", fs::perms::owner_all);
    fs::create_directories(tmp / "work");
    // cuvet gets SIGKILL while its "probe" sleeps inside the extracted tree.
    const ProcessResult killed = run_shell(
        "TMPDIR=" + shell_quote((tmp / "work").string()) + " timeout -s KILL 3 " +
        shell_quote(CUVET_BINARY_PATH) + " probe --self-test --timeout 60 --probe " +
        shell_quote((tmp / "hang.sh").string()) + " " + shell_quote((tmp / "rootfs").string()));
    CHECK(killed.exit_code == 137);
    bool removed = false;
    for (int i = 0; i < 100 && !removed; ++i) {
        removed = fs::is_empty(tmp / "work");
        if (!removed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(removed);
    // The probe died with cuvet.
    if (have_program("pgrep")) CHECK(run_shell("pgrep -f '^/bin/sleep 67$'").out.empty());
}
