// The two forms of a lock file (docs/freeze.md): line records for diffs and
// review, JSON for programs. Both parse back to the same Lock.
#include <cctype>

#include "cuvet/core/error.hpp"
#include "cuvet/lock/lock.hpp"
#include "schema.hpp"

namespace cuvet::lock {

namespace {

constexpr std::string_view header =
    "# cuvet stack lock (docs/freeze.md): the CUDA stack of an image as cuvet validate sees it";
constexpr std::string_view schema_line = "lock-schema";

bool bare(std::string_view value) {
    if (value.empty()) return false;
    for (char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '.' || c == '_' || c == '/' || c == '+' || c == ':' ||
              c == '@' || c == ',' || c == '~' || c == '-'))
            return false;
    }
    return true;
}

std::string quoted(const std::string& value) {
    return bare(value) ? value : nlohmann::json(value).dump();
}

std::string line_of(const Record& record) {
    std::string out = record.kind;
    for (const auto& [key, value] : record.fields) out += " " + key + "=" + quoted(value);
    return out;
}

// One "kind key=value key=\"quoted value\"" line.
Record parse_line(std::string_view line, const std::string& where) {
    Record record;
    std::size_t i = line.find(' ');
    record.kind = std::string(line.substr(0, i));
    while (i != std::string_view::npos && i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        if (i >= line.size()) break;
        const auto eq = line.find('=', i);
        if (eq == std::string_view::npos)
            fail_input(where + ": expected key=value, found '" + std::string(line.substr(i)) + "'");
        std::string key(line.substr(i, eq - i));
        std::size_t end = eq + 1;
        std::string value;
        if (end < line.size() && line[end] == '"') {
            std::size_t close = end + 1;
            while (close < line.size() && line[close] != '"') close += line[close] == '\\' ? 2 : 1;
            if (close >= line.size())
                fail_input(where + ": unterminated quoted value of '" + key + "'");
            auto parsed = nlohmann::json::parse(line.substr(end, close + 1 - end), nullptr, false);
            if (!parsed.is_string()) fail_input(where + ": bad quoted value of '" + key + "'");
            value = parsed.get<std::string>();
            end = close + 1;
        } else {
            end = line.find(' ', end);
            value = std::string(line.substr(
                eq + 1, end == std::string_view::npos ? std::string_view::npos : end - eq - 1));
        }
        record.fields.emplace_back(std::move(key), std::move(value));
        i = end;
    }
    return checked(std::move(record), where);
}

Lock parse_text(std::string_view text, const std::string& name) {
    Lock lock;
    bool schema_seen = false;
    std::size_t number = 0;
    for (std::size_t pos = 0; pos <= text.size();) {
        auto nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        auto line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        const std::string where = name + ":" + std::to_string(number);
        if (!schema_seen) {
            if (line.substr(0, schema_line.size()) != schema_line)
                fail_input(where + ": not a cuvet lock file (expected 'lock-schema " +
                           std::to_string(schema_version) + "')");
            const auto version = std::string(line.substr(schema_line.size()));
            if (version != " " + std::to_string(schema_version))
                fail_input(where + ": lock schema" + version + " is not one this cuvet reads (" +
                           std::to_string(schema_version) + ")");
            schema_seen = true;
            continue;
        }
        lock.records.push_back(parse_line(line, where));
    }
    if (!schema_seen) fail_input(name + ": not a cuvet lock file (no 'lock-schema' line)");
    sort_records(lock.records);
    return lock;
}

Lock parse_json(std::string_view text, const std::string& name) {
    auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded()) fail_input(name + ": not valid JSON");
    if (!json.is_object() || !json.contains("lock_schema") || !json.contains("records") ||
        !json["records"].is_array())
        fail_input(name + ": not a cuvet lock (expected an object with lock_schema and records)");
    if (json["lock_schema"] != schema_version)
        fail_input(name + ": lock schema " + json["lock_schema"].dump() +
                   " is not one this cuvet reads (" + std::to_string(schema_version) + ")");
    Lock lock;
    std::size_t index = 0;
    for (const auto& item : json["records"]) {
        const std::string where = name + ": records[" + std::to_string(index++) + "]";
        if (!item.is_object() || !item.contains("kind") || !item["kind"].is_string())
            fail_input(where + ": a record is an object with a string 'kind'");
        Record record;
        record.kind = item["kind"].get<std::string>();
        for (const auto& [key, value] : item.items()) {
            if (key == "kind") continue;
            if (!value.is_string()) fail_input(where + ": field '" + key + "' is not a string");
            record.fields.emplace_back(key, value.get<std::string>());
        }
        lock.records.push_back(checked(std::move(record), where));
    }
    sort_records(lock.records);
    return lock;
}

}  // namespace

std::string to_text(const Lock& lock) {
    std::string out = std::string(header) + "\n" + std::string(schema_line) + " " +
                      std::to_string(lock.schema) + "\n";
    for (const auto& record : lock.records) out += line_of(record) + "\n";
    return out;
}

nlohmann::json to_json(const Lock& lock) {
    nlohmann::json records = nlohmann::json::array();
    for (const auto& record : lock.records) {
        nlohmann::json item = {{"kind", record.kind}};
        for (const auto& [key, value] : record.fields) item[key] = value;
        records.push_back(std::move(item));
    }
    return {{"lock_schema", lock.schema}, {"records", std::move(records)}};
}

Lock parse(std::string_view text, const std::string& name) {
    const auto first = text.find_first_not_of(" \t\r\n");
    Lock lock = first != std::string_view::npos && text[first] == '{' ? parse_json(text, name)
                                                                      : parse_text(text, name);
    lock.source = name;
    return lock;
}

bool looks_like_lock(std::string_view head) {
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return false;
    head.remove_prefix(first);
    return head.front() == '#' || head.front() == '{' ||
           head.substr(0, schema_line.size()) == schema_line;
}

}  // namespace cuvet::lock
