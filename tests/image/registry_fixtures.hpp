#pragma once
// Images pushed into a real docker-registry for the registry tests.
#include <nlohmann/json.hpp>

#include "image/image_fixtures.hpp"
#include "support/registry_server.hpp"
#include "support/skip.hpp"

namespace cuvet::test {

// A test without the registry tools is skipped (support/skip.hpp).
#define REQUIRE_REGISTRY_TOOLS()                                                                  \
    do {                                                                                          \
        if (!RegistryServer::available())                                                         \
            CUVET_SKIP("skipped: docker-registry, skopeo, openssl or htpasswd is not installed"); \
    } while (0)

// Writes `spec` as an OCI layout under tmp/name (ref "t") and pushes it to
// registry as `repository:tag`; returns the layout directory.
inline std::filesystem::path push_image(const RegistryServer& registry, const TempDir& tmp,
                                        const ImageSpec& spec, const std::string& destination,
                                        const std::string& name = "oci") {
    auto layout = tmp / name;
    oci_layout({oci_image(spec, "t")}).write_dir(layout);
    auto pushed = registry.push("oci:" + layout.string() + ":t", destination);
    INFO("skopeo: " << pushed.err);
    REQUIRE(pushed.exit_code == 0);
    return layout;
}

// Runs cuvet with environment assignments ("SSL_CERT_FILE=…") and, when
// `password` is set, that password on its standard input.
inline ProcessResult run_cuvet_with(const std::vector<std::string>& environment,
                                    const std::vector<std::string>& args,
                                    const std::string& password = "") {
    std::string command;
    if (!password.empty()) command += "printf '%s\\n' " + shell_quote(password) + " | ";
    command += "env";
    for (const auto& assignment : environment) command += " " + shell_quote(assignment);
    command += " " + shell_quote(CUVET_BINARY_PATH);
    for (const auto& arg : args) command += " " + shell_quote(arg);
    return run_shell(command);
}

// The findings of a `validate --format json` run (null when it printed no report).
inline nlohmann::json findings_of(const ProcessResult& result) {
    auto report = nlohmann::json::parse(result.out, nullptr, false);
    if (!report.is_object() || !report.contains("findings")) return nullptr;
    return report["findings"];
}

}  // namespace cuvet::test
