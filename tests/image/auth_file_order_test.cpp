// Registry credentials are looked up in containers-auth.json(5) order, as
// skopeo and podman read them: REGISTRY_AUTH_FILE (else the runtime
// auth.json), then $XDG_CONFIG_HOME/containers/auth.json, then Docker's
// config.json; the first file with an entry for the registry answers.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <optional>

#include "image/registry/registry_auth.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

// Sets variables for one scope and restores what was there.
class ScopedEnv {
public:
    explicit ScopedEnv(const std::map<std::string, std::optional<std::string>>& values) {
        for (const auto& [name, value] : values) {
            const char* old = std::getenv(name.c_str());
            saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
            if (value)
                setenv(name.c_str(), value->c_str(), 1);
            else
                unsetenv(name.c_str());
        }
    }
    ~ScopedEnv() {
        for (const auto& [name, value] : saved_) {
            if (value)
                setenv(name.c_str(), value->c_str(), 1);
            else
                unsetenv(name.c_str());
        }
    }

private:
    std::map<std::string, std::optional<std::string>> saved_;
};

std::string auth_json(const std::string& registry, const std::string& user,
                      const std::string& password) {
    auto encoded =
        test::run_shell("printf %s " + test::shell_quote(user + ":" + password) + " | base64 -w0")
            .out;
    return R"({"auths": {")" + registry + R"(": {"auth": ")" + encoded + R"("}}})";
}

}  // namespace

TEST_CASE("credentials come from the auth files in containers-auth.json(5) order",
          "[image][auth]") {
    test::TempDir dir;
    const std::string registry = "registry.example.com:5000";
    const auto runtime = dir / "run", config_home = dir / "config", docker = dir / "docker",
               home = dir / "home";
    for (const auto& d : {runtime / "containers", config_home / "containers", docker, home})
        std::filesystem::create_directories(d);
    test::write_file(dir / "explicit.json", auth_json(registry, "explicit", "1"));
    test::write_file(runtime / "containers/auth.json", auth_json(registry, "runtime", "2"));
    test::write_file(config_home / "containers/auth.json", auth_json(registry, "config", "3"));
    test::write_file(docker / "config.json", auth_json(registry, "docker", "4"));
    ScopedEnv env({{"HOME", home.string()},
                   {"XDG_RUNTIME_DIR", runtime.string()},
                   {"XDG_CONFIG_HOME", config_home.string()},
                   {"DOCKER_CONFIG", docker.string()},
                   {"REGISTRY_AUTH_FILE", (dir / "explicit.json").string()}});

    CHECK(image::auth_file_search_order() ==
          std::vector<std::string>{(dir / "explicit.json").string(),
                                   (config_home / "containers/auth.json").string(),
                                   (docker / "config.json").string()});
    auto credentials = image::stored_credentials(registry);
    CHECK(credentials.username == "explicit");
    CHECK(credentials.source == (dir / "explicit.json").string());

    {
        ScopedEnv no_explicit({{"REGISTRY_AUTH_FILE", std::nullopt}});
        CHECK(image::stored_credentials(registry).username == "runtime");
    }
    {
        // A file without an entry for this registry passes the question on.
        ScopedEnv other({{"REGISTRY_AUTH_FILE", std::nullopt}});
        test::write_file(runtime / "containers/auth.json",
                         auth_json("other.example.com", "x", "y"));
        CHECK(image::stored_credentials(registry).username == "config");
        std::filesystem::remove(config_home / "containers/auth.json");
        CHECK(image::stored_credentials(registry).username == "docker");
        CHECK(image::stored_credentials(registry).password == "4");
    }
    {
        // Defaults: ~/.config and ~/.docker under HOME.
        ScopedEnv defaults({{"REGISTRY_AUTH_FILE", std::nullopt},
                            {"XDG_CONFIG_HOME", std::nullopt},
                            {"DOCKER_CONFIG", std::nullopt}});
        std::filesystem::create_directories(home / ".config/containers");
        test::write_file(home / ".config/containers/auth.json",
                         auth_json(registry, "home-config", "5"));
        CHECK(image::stored_credentials(registry).username == "home-config");
        std::filesystem::remove(home / ".config/containers/auth.json");
        std::filesystem::create_directories(home / ".docker");
        test::write_file(home / ".docker/config.json", auth_json(registry, "home-docker", "6"));
        CHECK(image::stored_credentials(registry).username == "home-docker");
    }
}
