#include "json_node.hpp"

#include <algorithm>

#include "cuvet/core/error.hpp"

namespace cuvet::rules::detail {

std::string escape_pointer_token(std::string_view token) {
    std::string out;
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

void JsonNode::fail(const std::string& problem) const {
    fail_input(*origin_ + ": " + (pointer_.empty() ? "/" : pointer_) + ": " + problem);
}

bool JsonNode::has(std::string_view key) const {
    return value_->is_object() && value_->contains(key);
}

void JsonNode::expect_object(std::initializer_list<std::string_view> allowed) const {
    if (!value_->is_object()) fail("expected an object");
    for (const auto& [key, unused] : value_->items()) {
        (void)unused;
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            JsonNode(value_->at(key), pointer_ + "/" + escape_pointer_token(key), *origin_)
                .fail("unexpected key '" + key + "'");
        }
    }
}

JsonNode JsonNode::at(std::string_view key) const {
    if (!value_->is_object()) fail("expected an object");
    auto it = value_->find(key);
    if (it == value_->end()) fail("missing required key '" + std::string(key) + "'");
    return JsonNode(*it, pointer_ + "/" + escape_pointer_token(key), *origin_);
}

std::optional<JsonNode> JsonNode::get(std::string_view key) const {
    if (!value_->is_object()) fail("expected an object");
    auto it = value_->find(key);
    if (it == value_->end()) return std::nullopt;
    return JsonNode(*it, pointer_ + "/" + escape_pointer_token(key), *origin_);
}

std::vector<std::pair<std::string, JsonNode>> JsonNode::members() const {
    if (!value_->is_object()) fail("expected an object");
    std::vector<std::pair<std::string, JsonNode>> out;
    for (const auto& [key, value] : value_->items()) {
        out.emplace_back(key,
                         JsonNode(value, pointer_ + "/" + escape_pointer_token(key), *origin_));
    }
    return out;
}

std::vector<JsonNode> JsonNode::array() const {
    if (!value_->is_array()) fail("expected an array");
    std::vector<JsonNode> out;
    out.reserve(value_->size());
    for (std::size_t i = 0; i < value_->size(); ++i) {
        out.emplace_back((*value_)[i], pointer_ + "/" + std::to_string(i), *origin_);
    }
    return out;
}

std::string JsonNode::string() const {
    if (!value_->is_string()) fail("expected a string");
    return value_->get<std::string>();
}

std::string JsonNode::optional_string(std::string_view key) const {
    auto node = get(key);
    return node ? node->string() : std::string();
}

int JsonNode::integer() const {
    if (!value_->is_number_integer()) fail("expected an integer");
    return value_->get<int>();
}

bool JsonNode::boolean() const {
    if (!value_->is_boolean()) fail("expected true or false");
    return value_->get<bool>();
}

Version JsonNode::version() const {
    if (value_->is_string()) {
        if (auto parsed = Version::parse(value_->get_ref<const std::string&>())) return *parsed;
    }
    fail("expected a version string (numbers separated by dots, e.g. \"12.4.1\")");
}

std::optional<Version> JsonNode::nullable_version() const {
    if (value_->is_null()) return std::nullopt;
    return version();
}

std::vector<Version> JsonNode::version_array() const {
    std::vector<Version> out;
    for (const auto& item : array()) out.push_back(item.version());
    return out;
}

std::vector<std::string> JsonNode::string_array() const {
    std::vector<std::string> out;
    for (const auto& item : array()) out.push_back(item.string());
    return out;
}

std::vector<int> JsonNode::int_array() const {
    std::vector<int> out;
    for (const auto& item : array()) out.push_back(item.integer());
    return out;
}

}  // namespace cuvet::rules::detail
