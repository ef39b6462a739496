// Issue 33: the files validate reads beside the image (--dockerfile, --nodes,
// --against) come from the checkout like lint's Dockerfile: a link out of the
// working tree is refused unread, a FIFO is refused at once (not a hang).
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "image/image_fixtures.hpp"
#include "support/process.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

TEST_CASE("validate: a checkout's file linked out of the working tree or a FIFO is refused",
          "[cli][config]") {
    TempDir dir;
    fs::create_directories(dir / "checkout");
    const fs::path image = write_docker(dir, two_layer_spec(), "image.tar");
    write_file(dir / "secret", "root:$6$SECRET-HASH-VALUE:19000:0:99999:7:::\n");
    const std::string cd = "cd " + shell_quote((dir / "checkout").string()) + " && timeout 20 " +
                           shell_quote(std::string(CUVET_BINARY_PATH)) + " validate --no-cache " +
                           shell_quote(image.string());
    for (const std::string option : {"--dockerfile", "--nodes", "--against"}) {
        INFO(option);
        fs::remove(dir / "checkout" / "input");
        fs::create_symlink(dir / "secret", dir / "checkout" / "input");
        auto linked = run_shell(cd + " " + option + " input");
        CHECK(linked.exit_code == 3);
        CHECK_THAT(linked.err, Catch::Contains("input: a symbolic link out of the working tree"));
        CHECK(linked.err.find("SECRET") == std::string::npos);
        CHECK(linked.out.find("SECRET") == std::string::npos);
        fs::remove(dir / "checkout" / "input");
        REQUIRE(::mkfifo((dir / "checkout" / "input").c_str(), 0644) == 0);
        auto fifo = run_shell(cd + " " + option + " input");
        CHECK(fifo.exit_code == 3);  // 124: timeout's, the FIFO hung the run
        CHECK(std::count(fifo.err.begin(), fifo.err.end(), '\n') == 1);
    }
}
