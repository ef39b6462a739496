#include "trusted_keys.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cuvet/core/error.hpp"

namespace cuvet::rules_bundle::detail {
namespace {

// The release key's public half; its private half never enters the repository
// (docs/rules-bundle.md, "How releases are signed").
constexpr const char* project_public_key_pem =
    "-----BEGIN PUBLIC KEY-----\n"
    "MCowBQYDK2VwAyEAflW8oEh48c/zUP9m1I24TppoZB4kKVMKf6z7ismCQGo=\n"
    "-----END PUBLIC KEY-----\n";

std::string read_key_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail_io(path.string() + ": cannot read the key file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::filesystem::path default_config_dir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "cuvet";
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        return std::filesystem::path(home) / ".config" / "cuvet";
    return {};
}

}  // namespace

PublicKey project_key() { return parse_public_key(project_public_key_pem, "built-in"); }

std::vector<PublicKey> trusted_keys(const std::filesystem::path& config_dir,
                                    const std::vector<std::filesystem::path>& extra) {
    std::vector<PublicKey> keys{project_key()};
    const std::filesystem::path dir =
        (config_dir.empty() ? default_config_dir() : config_dir) / "trusted-keys";
    std::error_code error;
    std::vector<std::filesystem::path> configured;
    if (!dir.empty() && std::filesystem::is_directory(dir, error))
        for (const auto& entry : std::filesystem::directory_iterator(dir, error))
            if (entry.path().extension() == ".pem") configured.push_back(entry.path());
    std::sort(configured.begin(), configured.end());
    configured.insert(configured.end(), extra.begin(), extra.end());
    for (const auto& path : configured)
        keys.push_back(parse_public_key(read_key_file(path), path.string()));
    return keys;
}

}  // namespace cuvet::rules_bundle::detail
