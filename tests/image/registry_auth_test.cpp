// Registries that want credentials: htpasswd basic auth and Bearer tokens
// from a token service, with the credentials from --username/--password-stdin,
// docker's config.json (auths) and a docker-credential helper.
#include "image/registry_fixtures.hpp"

using namespace cuvet::test;

namespace {

void write_docker_config(const std::filesystem::path& dir, const nlohmann::json& config) {
    std::filesystem::create_directories(dir);
    write_file(dir / "config.json", config.dump());
}

std::string base64(const std::string& text) {
    return run_shell("printf %s " + shell_quote(text) + " | base64 -w0").out;
}

void check_all_credential_sources(const RegistryServer& registry, const std::string& url,
                                  const std::string& expected) {
    TempDir home;
    const std::string no_config = "DOCKER_CONFIG=" + (home / "none").string();
    const std::string no_podman = "REGISTRY_AUTH_FILE=" + (home / "none/auth.json").string();

    auto anonymous = run_cuvet_with({no_config, no_podman}, {"files", "--insecure", url});
    require_bad_input(anonymous, url);
    CHECK((anonymous.err.find("401") != std::string::npos ||
           anonymous.err.find("refused") != std::string::npos));

    auto flags = run_cuvet_with(
        {no_config, no_podman},
        {"files", "--insecure", "--username", "alice", "--password-stdin", url}, "s3cret pass");
    INFO("flags: " << flags.err);
    CHECK(flags.exit_code == 0);
    CHECK(flags.out == expected);

    auto wrong = run_cuvet_with(
        {no_config, no_podman},
        {"files", "--insecure", "--username", "alice", "--password-stdin", url}, "wrong");
    require_bad_input(wrong, url);
    CHECK(wrong.err.find("--username") != std::string::npos);

    write_docker_config(home / "auths",
                        {{"auths", {{registry.host(), {{"auth", base64("alice:s3cret pass")}}}}}});
    auto from_config = run_cuvet_with({"DOCKER_CONFIG=" + (home / "auths").string(), no_podman},
                                      {"files", "--insecure", url});
    INFO("config.json: " << from_config.err);
    CHECK(from_config.exit_code == 0);
    CHECK(from_config.out == expected);

    // A credential helper is any docker-credential-<name> on PATH speaking docker's protocol.
    std::filesystem::create_directories(home / "bin");
    write_file(
        home / "bin/docker-credential-cuvettest",
        "#!/bin/sh\nread server\n[ \"$1\" = get ] && [ \"$server\" = " +
            shell_quote(registry.host()) +
            " ] || exit 1\necho "
            "'{\"ServerURL\":\"'$server'\",\"Username\":\"alice\",\"Secret\":\"s3cret pass\"}'\n");
    std::filesystem::permissions(home / "bin/docker-credential-cuvettest",
                                 std::filesystem::perms::owner_all);
    write_docker_config(home / "helper", {{"credHelpers", {{registry.host(), "cuvettest"}}}});
    auto from_helper =
        run_cuvet_with({"DOCKER_CONFIG=" + (home / "helper").string(), no_podman,
                        "PATH=" + (home / "bin").string() + ":" + std::getenv("PATH")},
                       {"files", "--insecure", url});
    INFO("helper: " << from_helper.err);
    CHECK(from_helper.exit_code == 0);
    CHECK(from_helper.out == expected);
}

}  // namespace

TEST_CASE("an htpasswd registry: basic auth from flags, config.json and a credential helper",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry({.user = "alice", .password = "s3cret pass"});
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:basic");
    check_all_credential_sources(registry, registry.url("cuvet/test:basic"),
                                 run_cuvet({"files", layout.string()}).out);
}

TEST_CASE("a token-auth registry: Bearer tokens from the realm in WWW-Authenticate",
          "[integration][image][registry]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry({.user = "alice", .password = "s3cret pass", .token_auth = true});
    TempDir tmp;
    auto layout = push_image(registry, tmp, two_layer_spec(), "cuvet/test:token");
    check_all_credential_sources(registry, registry.url("cuvet/test:token"),
                                 run_cuvet({"files", layout.string()}).out);
}

TEST_CASE("files with --username but no --password-stdin is a usage error", "[image][registry]") {
    auto result = run_cuvet({"files", "--username", "alice", "docker://127.0.0.1:1/x:y"});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--password-stdin") != std::string::npos);
}
