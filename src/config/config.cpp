#include "cuvet/config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "cuvet/core/text_input.hpp"

namespace cuvet::config {

namespace {

[[noreturn]] void fail_at(const std::string& origin, const YAML::Mark& mark,
                          const std::string& problem) {
    // yaml-cpp marks are 0-based; editors count from 1.
    fail_input(origin + ":" + std::to_string(mark.line + 1) + ":" +
               std::to_string(mark.column + 1) + ": " + problem);
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string check_id(const YAML::Node& node, const std::string& origin) {
    if (!node.IsScalar()) fail_at(origin, node.Mark(), "expected a check id such as CUV001");
    static const std::regex pattern(
        "CUV[0-9]{3}|CUVL[0-9]{2,3}|CUVG[0-9]{2}");  // validate, lint, live
    std::string id = upper(node.Scalar());
    if (!std::regex_match(id, pattern)) {
        fail_at(origin, node.Mark(),
                "'" + node.Scalar() + "' is not a check id (CUV001, CUVL01, …)");
    }
    return id;
}

std::vector<std::string> string_list(const YAML::Node& node, const std::string& origin,
                                     const std::string& key) {
    if (!node.IsSequence()) fail_at(origin, node.Mark(), key + ": expected a list");
    std::vector<std::string> out;
    for (const auto& item : node) {
        if (!item.IsScalar()) fail_at(origin, item.Mark(), key + ": expected a string");
        out.push_back(item.Scalar());
    }
    return out;
}

void read_targets(const YAML::Node& node, const std::string& origin, Config& config) {
    if (!node.IsMap()) fail_at(origin, node.Mark(), "targets: expected a mapping");
    for (const auto& entry : node) {
        std::string key = entry.first.Scalar();
        if (key == "drivers") {
            if (!entry.second.IsSequence())
                fail_at(origin, entry.second.Mark(), "targets.drivers: expected a list");
            for (const auto& item : entry.second) {
                auto version =
                    item.IsScalar() ? rules::Version::parse(item.Scalar()) : std::nullopt;
                if (!version)
                    fail_at(origin, item.Mark(),
                            "targets.drivers: expected a driver version such as 535.104.05");
                config.drivers.push_back(*version);
            }
        } else if (key == "gpus") {
            config.gpus = string_list(entry.second, origin, "targets.gpus");
        } else {
            fail_at(origin, entry.first.Mark(),
                    "unknown key 'targets." + key + "' (expected drivers, gpus)");
        }
    }
}

void read_root(const YAML::Node& root, const std::string& origin, Config& config) {
    for (const auto& entry : root) {
        std::string key = entry.first.Scalar();
        const YAML::Node& value = entry.second;
        if (key == "ignore") {
            if (!value.IsSequence())
                fail_at(origin, value.Mark(), "ignore: expected a list of check ids");
            for (const auto& item : value) config.ignored.insert(check_id(item, origin));
        } else if (key == "severity") {
            if (!value.IsMap())
                fail_at(origin, value.Mark(), "severity: expected a mapping of id: severity");
            for (const auto& item : value) {
                std::string id = check_id(item.first, origin);
                auto severity = item.second.IsScalar()
                                    ? report::parse_severity(item.second.Scalar())
                                    : std::nullopt;
                if (!severity)
                    fail_at(origin, item.second.Mark(),
                            "severity." + id + ": expected error, warning or info");
                config.severity[id] = *severity;
            }
        } else if (key == "targets") {
            read_targets(value, origin, config);
        } else if (key == "trusted_library_dirs") {
            config.trusted_library_dirs = string_list(value, origin, key);
            for (const auto& dir : config.trusted_library_dirs) {
                if (dir.empty() || dir.front() != '/') {
                    fail_at(origin, value.Mark(),
                            "trusted_library_dirs: '" + dir + "' is not an absolute path");
                }
            }
        } else if (key == "fail_on") {
            auto threshold =
                value.IsScalar() ? report::parse_fail_on(value.Scalar()) : std::nullopt;
            if (!threshold)
                fail_at(origin, value.Mark(), "fail_on: expected error, warning, info or never");
            config.fail_on = threshold;
        } else {
            fail_at(origin, entry.first.Mark(),
                    "unknown key '" + key +
                        "' (expected ignore, severity, targets, trusted_library_dirs, fail_on)");
        }
    }
}

}  // namespace

Config parse_config(const std::string& text, const std::string& origin) {
    Config config;
    config.path = origin;
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        fail_at(origin, e.mark, e.msg);
    }
    if (root.IsNull()) return config;  // an empty file is a valid, empty config
    if (!root.IsMap()) fail_at(origin, root.Mark(), "expected a mapping at the top level");
    try {
        read_root(root, origin, config);
    } catch (const YAML::Exception& e) {
        fail_at(origin, e.mark, e.msg);
    }
    return config;
}

Config load_config(const std::optional<std::filesystem::path>& explicit_path,
                   const std::filesystem::path& working_dir) {
    std::filesystem::path path;
    if (explicit_path) {
        path = *explicit_path;
    } else {
        path = working_dir / ".cuvet.yaml";
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) return Config{};
    }
    return parse_config(read_text_input(path.string()), path.string());
}

std::vector<report::Finding> apply(const Config& config, std::vector<report::Finding>& findings) {
    std::vector<report::Finding> silenced;
    std::erase_if(findings, [&](const report::Finding& f) {
        if (config.ignored.count(upper(f.id)) == 0) return false;
        silenced.push_back(f);
        return true;
    });
    for (auto& finding : findings) {
        auto it = config.severity.find(upper(finding.id));
        if (it != config.severity.end()) finding.severity = it->second;
    }
    return silenced;
}

}  // namespace cuvet::config
