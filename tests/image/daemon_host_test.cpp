// The daemon cuvet reads is the one docker would: $DOCKER_HOST, else the
// current Docker context. A tcp:// or ssh:// daemon is refused by name (exit 3).
// And a rootless containers-storage failure shows skopeo's real cause.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "image/storage/sha256.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

test::ProcessResult cuvet_env(const std::string& assignments,
                              const std::vector<std::string>& args) {
    std::string command = "env " + assignments + " " + test::shell_quote(CUVET_BINARY_PATH);
    for (const auto& arg : args) command += " " + test::shell_quote(arg);
    return test::run_shell(command);
}

// ~/.docker as `docker context create NAME --docker host=HOST` and `docker context use NAME` leave
// it.
void write_context(const std::filesystem::path& docker_dir, const std::string& name,
                   const std::string& host) {
    std::string digest = image::sha256_digest(name);
    auto meta = docker_dir / "contexts/meta" / digest.substr(digest.find(':') + 1);
    std::filesystem::create_directories(meta);
    test::write_file(meta / "meta.json", R"({"Name":")" + name +
                                             R"(","Metadata":{},"Endpoints":{"docker":{"Host":")" +
                                             host + R"(","SkipTLSVerify":false}}})");
    test::write_file(docker_dir / "config.json",
                     R"({"auths":{},"currentContext":")" + name + R"("})");
}

}  // namespace

TEST_CASE("DOCKER_HOST=tcp:// is refused by name with exit 3", "[image][daemon]") {
    test::TempDir dir;
    const std::string isolated =
        "XDG_RUNTIME_DIR=" + test::shell_quote(dir.path().string()) +
        " CONTAINER_HOST= DOCKER_CONFIG=" + test::shell_quote((dir / "docker").string());
    auto tcp =
        cuvet_env(isolated + " DOCKER_HOST=tcp://127.0.0.1:2375", {"files", "docker-daemon:app:1"});
    CHECK(tcp.exit_code == 3);
    CHECK(tcp.err.find(
              "docker-daemon:app:1: DOCKER_HOST=tcp://127.0.0.1:2375: TCP is not supported") !=
          std::string::npos);
    auto ssh =
        cuvet_env(isolated + " DOCKER_HOST=ssh://me@builder", {"files", "docker-daemon:app:1"});
    CHECK(ssh.exit_code == 3);
    CHECK(ssh.err.find("ssh is not supported") != std::string::npos);
}

TEST_CASE("the current Docker context names the daemon", "[image][daemon]") {
    test::TempDir dir;
    const std::string isolated = "XDG_RUNTIME_DIR=" + test::shell_quote(dir.path().string()) +
                                 " CONTAINER_HOST= DOCKER_HOST= DOCKER_CONTEXT= DOCKER_CONFIG=" +
                                 test::shell_quote((dir / "docker").string());
    write_context(dir / "docker", "remote", "tcp://10.0.0.7:2376");
    auto remote = cuvet_env(isolated, {"files", "docker-daemon:app:1"});
    CHECK(remote.exit_code == 3);
    CHECK(remote.err.find("docker context 'remote' (tcp://10.0.0.7:2376): TCP is not supported") !=
          std::string::npos);

    // A context on a Unix socket is asked: here a socket nobody listens on,
    // so the error names that socket (and not /var/run/docker.sock).
    const auto socket = dir / "ctx.sock";
    auto listener = test::run_shell(
        "python3 -c " +
        test::shell_quote("import socket; s=socket.socket(socket.AF_UNIX); s.bind('" +
                          socket.string() + "')"));
    if (listener.exit_code != 0) {
        CUVET_SKIP("the unix context: cannot make a socket file");
    }
    write_context(dir / "docker", "colima", "unix://" + socket.string());
    auto local = cuvet_env(isolated, {"files", "docker-daemon:app:1"});
    CHECK(local.exit_code == 3);
    CHECK(local.err.find(socket.string()) != std::string::npos);
    // DOCKER_CONTEXT picks another context, as for docker.
    write_context(dir / "docker", "remote", "tcp://10.0.0.7:2376");
    write_context(dir / "docker", "colima", "unix://" + socket.string());
    auto chosen = cuvet_env(isolated + " DOCKER_CONTEXT=remote", {"files", "docker-daemon:app:1"});
    CHECK(chosen.err.find("docker context 'remote'") != std::string::npos);
}

TEST_CASE("a rootless containers-storage failure shows skopeo's cause, not its last line",
          "[integration][image][storage]") {
    if (geteuid() != 0 || !test::have_program("setpriv") || !test::have_program("skopeo")) {
        CUVET_SKIP("needs root (to run as nobody), setpriv and skopeo");
    }
    test::TempDir dir;
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    // nobody has no /etc/subuid range: skopeo's rootless storage cannot start.
    auto result = test::run_shell(
        "cd " + test::shell_quote(dir.path().string()) +
        " && setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=" +
        test::shell_quote(dir.path().string()) +
        " XDG_RUNTIME_DIR=" + test::shell_quote(dir.path().string()) + " " +
        test::shell_quote(CUVET_BINARY_PATH) + " files containers-storage:busybox:latest");
    INFO(result.err);
    CHECK(result.exit_code == 3);
    CHECK(result.err.find("containers-storage:busybox:latest: skopeo failed: ") !=
          std::string::npos);
    CHECK(result.err.find("subuid") != std::string::npos);
    CHECK(result.err.find("uidmap") != std::string::npos);  // the hint names the package
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);  // one line
}
