#pragma once
// A JSON value plus where it sits (file and JSON pointer), so that every schema
// error names the exact spot: "rules/cudnn.json: /releases/3/version: expected …".
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/rules/version.hpp"

namespace cuvet::rules::detail {

class JsonNode {
public:
    JsonNode(const nlohmann::json& value, std::string pointer, const std::string& origin)
        : value_(&value), pointer_(std::move(pointer)), origin_(&origin) {}

    [[noreturn]] void fail(const std::string& problem) const;

    const std::string& pointer() const { return pointer_; }
    bool is_null() const { return value_->is_null(); }
    bool is_string() const { return value_->is_string(); }
    bool has(std::string_view key) const;

    // Objects: the keys must be among `allowed` (typos fail loudly).
    void expect_object(std::initializer_list<std::string_view> allowed) const;
    JsonNode at(std::string_view key) const;                  // required member
    std::optional<JsonNode> get(std::string_view key) const;  // optional member (may be null)
    std::vector<std::pair<std::string, JsonNode>> members() const;

    std::vector<JsonNode> array() const;
    std::string string() const;
    std::string optional_string(std::string_view key) const;  // "" when absent
    int integer() const;
    bool boolean() const;
    Version version() const;
    std::optional<Version> nullable_version() const;
    std::vector<Version> version_array() const;
    std::vector<std::string> string_array() const;
    std::vector<int> int_array() const;

private:
    const nlohmann::json* value_;
    std::string pointer_;
    const std::string* origin_;
};

std::string escape_pointer_token(std::string_view token);

}  // namespace cuvet::rules::detail
