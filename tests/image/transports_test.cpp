// The table of transports (src/image/transports/transports.cpp): its order is
// the precedence docs/architecture.md promises, and real references land on
// the row that order says.
#include "image/transports/transports.hpp"

#include <set>

#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// `cuvet files NAME` run from inside `dir`, so NAME can be a bare relative name.
ProcessResult files_in(const fs::path& dir, const std::string& name) {
    return run_shell("cd " + shell_quote(dir.string()) + " && timeout 120 env -u DOCKER_HOST " +
                     shell_quote(CUVET_BINARY_PATH) + " files " + shell_quote(name));
}

}  // namespace

TEST_CASE("transports are asked prefixes first then directory then archive then a bare name",
          "[image][transports]") {
    std::vector<std::string_view> names;
    std::set<std::string_view> unique;
    bool path_rows_started = false;
    for (const auto& transport : cuvet::image::transports()) {
        names.push_back(transport.name);
        CHECK(unique.insert(transport.name).second);
        REQUIRE(transport.open != nullptr);
        if (transport.prefix.empty()) {
            path_rows_started = true;
            CHECK(transport.recognises != nullptr);
        } else {
            CHECK_FALSE(path_rows_started);  // a prefix must win over a file of that name
            CHECK(transport.recognises == nullptr);
        }
    }
    CHECK(names == std::vector<std::string_view>{"docker", "docker-daemon", "containers-storage",
                                                 "directory", "archive", "name"});
}

TEST_CASE("a file named like a reference is opened as the file and a prefix wins over a file",
          "[image][transports]") {
    TempDir tmp;
    write_docker(tmp, two_layer_spec(), "repo:v1");
    write_docker(tmp, two_layer_spec(), "docker-daemon:repo:v1");

    // REPO:TAG that is a file: the archive row, before the bare-name row.
    auto as_file = files_in(tmp.path(), "repo:v1");
    INFO("stderr: " << as_file.err);
    CHECK(as_file.exit_code == 0);
    CHECK(as_file.out.find("etc") != std::string::npos);

    // The same name with a prefix: the daemon row, even though a file has that name.
    auto prefixed = files_in(tmp.path(), "docker-daemon:repo:v1");
    INFO("stderr: " << prefixed.err);
    CHECK(prefixed.exit_code == 3);
    CHECK(prefixed.err.find("docker-daemon:repo:v1: not found") != std::string::npos);

    // A missing file spelled as a path is no reference: no row takes it.
    auto missing = files_in(tmp.path(), "./absent:v1");
    require_bad_input(missing, "./absent:v1: no such file or directory");
}
