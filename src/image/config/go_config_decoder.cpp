#include "image/config/go_config_decoder.hpp"

#include <memory>
#include <span>
#include <vector>

#include "cuvet/core/error.hpp"

namespace cuvet::image {

using nlohmann::json;

namespace {

// A JSON value with every object member kept, in document order, duplicates included
// (nlohmann's DOM keeps one value per exact key, and not their order).
struct Member;
struct Value {
    enum Kind { Null, Bool, Number, String, Object, Array } kind = Null;
    json scalar;
    // Not std::pair<std::string, Value>: with clang, pair's constructor traits need Value
    // complete inside its own definition.
    std::vector<Member> members;
    std::vector<Value> items;
};
struct Member {
    std::string first;
    Value second;
};

// Deeper than any field of the OCI config; a value below it is kept as its kind only, so
// a deeply nested value costs no recursion here.
constexpr std::size_t kMaxDepth = 4;

class ValueBuilder : public nlohmann::json_sax<json> {
public:
    Value root;

    bool null() override { return put(Value{}); }
    bool boolean(bool v) override { return put(Value{Value::Bool, v, {}, {}}); }
    bool number_integer(number_integer_t v) override {
        return put(Value{Value::Number, v, {}, {}});
    }
    bool number_unsigned(number_unsigned_t v) override {
        return put(Value{Value::Number, v, {}, {}});
    }
    bool number_float(number_float_t v, const string_t&) override {
        return put(Value{Value::Number, v, {}, {}});
    }
    bool string(string_t& v) override { return put(Value{Value::String, v, {}, {}}); }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return open(Value::Object); }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Value::Array); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception&) override {
        error_byte = position;
        return false;
    }
    std::size_t error_byte = 0;

private:
    // The open containers; null where the container is below kMaxDepth and not kept.
    std::vector<Value*> stack_;
    std::string key_;

    Value* place(Value value) {
        if (stack_.empty()) {
            root = std::move(value);
            return &root;
        }
        Value* parent = stack_.back();
        if (parent == nullptr || stack_.size() > kMaxDepth) return nullptr;
        if (parent->kind == Value::Object) {
            parent->members.push_back(Member{key_, std::move(value)});
            return &parent->members.back().second;
        }
        parent->items.push_back(std::move(value));
        return &parent->items.back();
    }
    bool put(Value value) {
        place(std::move(value));
        return true;
    }
    bool open(Value::Kind kind) {
        Value value;
        value.kind = kind;
        stack_.push_back(place(std::move(value)));
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
};

// encoding/json's equalFoldRight: ASCII letters fold, and the two non-ASCII runes whose
// simple fold is an ASCII letter (U+017F long s, U+212A Kelvin sign) match 's' and 'k'.
bool fold_equal(std::string_view key, std::string_view field) {
    std::size_t k = 0;
    for (char f : field) {
        if (k >= key.size()) return false;
        const auto lower = [](char c) {
            return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        };
        const char want = lower(f);
        if (static_cast<unsigned char>(key[k]) < 0x80) {
            if (lower(key[k]) != want) return false;
            ++k;
        } else if (want == 's' && key.substr(k, 2) == "\xC5\xBF") {
            k += 2;
        } else if (want == 'k' && key.substr(k, 3) == "\xE2\x84\xAA") {
            k += 3;
        } else {
            return false;
        }
    }
    return k == key.size();
}

// How a field's Go type decodes.
enum class Type {
    String,      // string: null leaves it
    Time,        // *time.Time: null clears it (kept as the string cuvet shows)
    Bool,        // bool: null leaves it
    Strings,     // []string: null clears it, an array replaces it
    StringMap,   // map[string]string: null clears it, an object merges into it
    ObjectMap,   // map[string]struct{}: the same; values must be objects
    Struct,      // a struct: null leaves it, an object merges into it
    StructList,  // []struct: null clears it, an array replaces it
};

struct Field {
    const char* name;
    Type type;
    std::span<const Field> fields = {};  // of a Struct or StructList
};

// github.com/opencontainers/image-spec/specs-go/v1: ImageConfig, RootFS, History, Image.
constexpr Field kRunConfig[] = {
    {"User", Type::String},       {"ExposedPorts", Type::ObjectMap},
    {"Env", Type::Strings},       {"Entrypoint", Type::Strings},
    {"Cmd", Type::Strings},       {"Volumes", Type::ObjectMap},
    {"WorkingDir", Type::String}, {"Labels", Type::StringMap},
    {"StopSignal", Type::String}, {"ArgsEscaped", Type::Bool},
};
constexpr Field kRootFs[] = {{"type", Type::String}, {"diff_ids", Type::Strings}};
constexpr Field kHistory[] = {
    {"created", Type::Time},   {"created_by", Type::String}, {"author", Type::String},
    {"comment", Type::String}, {"empty_layer", Type::Bool},
};
constexpr Field kImage[] = {
    {"created", Type::Time},           {"author", Type::String},
    {"architecture", Type::String},    {"os", Type::String},
    {"os.version", Type::String},      {"os.features", Type::Strings},
    {"variant", Type::String},         {"config", Type::Struct, kRunConfig},
    {"rootfs", Type::Struct, kRootFs}, {"history", Type::StructList, kHistory},
};

class Decoder {
public:
    explicit Decoder(const std::string& where) : where_(where) {}

    void decode_struct(const Value& value, std::span<const Field> fields, json& out) const {
        for (const auto& [key, member] : value.members) {
            const Field* field = nullptr;
            for (const Field& candidate : fields) {
                if (key == candidate.name) {  // an exact match beats a folded one, as in Go
                    field = &candidate;
                    break;
                }
                if (field == nullptr && fold_equal(key, candidate.name)) field = &candidate;
            }
            if (field != nullptr) decode_field(member, *field, out);
        }
    }

private:
    const std::string& where_;

    [[noreturn]] void wrong_type(const Field& field, const char* want) const {
        fail_input(where_ + ": \"" + field.name + "\" must be " + want);
    }

    void decode_field(const Value& value, const Field& field, json& out) const {
        const std::string name = field.name;
        switch (field.type) {
            case Type::String:
                if (value.kind == Value::Null) return;
                if (value.kind != Value::String) wrong_type(field, "a string");
                out[name] = value.scalar;
                return;
            case Type::Time:
                if (value.kind == Value::Null) return void(out.erase(name));
                if (value.kind != Value::String) wrong_type(field, "a string");
                out[name] = value.scalar;
                return;
            case Type::Bool:
                if (value.kind == Value::Null) return;
                if (value.kind != Value::Bool) wrong_type(field, "true or false");
                out[name] = value.scalar;
                return;
            case Type::Strings:
                decode_strings(value, field, out);
                return;
            case Type::StringMap:
            case Type::ObjectMap:
                decode_map(value, field, out);
                return;
            case Type::Struct:
                if (value.kind == Value::Null) return;
                if (value.kind != Value::Object) wrong_type(field, "an object");
                if (!out.contains(name)) out[name] = json::object();
                decode_struct(value, field.fields, out[name]);
                return;
            case Type::StructList:
                decode_struct_list(value, field, out);
                return;
        }
    }

    void decode_strings(const Value& value, const Field& field, json& out) const {
        const std::string name = field.name;
        if (value.kind == Value::Null) return void(out.erase(name));
        if (value.kind != Value::Array) wrong_type(field, "an array of strings");
        json list = json::array();
        for (const Value& item : value.items) {
            if (item.kind == Value::Null) {
                list.push_back("");  // null into a new string element leaves it ""
            } else if (item.kind == Value::String) {
                list.push_back(item.scalar);
            } else {
                wrong_type(field, "an array of strings");
            }
        }
        out[name] = std::move(list);
    }

    void decode_map(const Value& value, const Field& field, json& out) const {
        const std::string name = field.name;
        if (value.kind == Value::Null) return void(out.erase(name));
        if (value.kind != Value::Object) wrong_type(field, "an object");
        if (!out.contains(name)) out[name] = json::object();
        json& map = out[name];
        for (const auto& [key, item] : value.members) {
            if (field.type == Type::StringMap) {
                if (item.kind != Value::Null && item.kind != Value::String)
                    wrong_type(field, "an object of strings");
                map[key] = item.kind == Value::String ? item.scalar : json("");
            } else {
                if (item.kind != Value::Null && item.kind != Value::Object)
                    wrong_type(field, "an object of objects");
                map[key] = json::object();
            }
        }
    }

    void decode_struct_list(const Value& value, const Field& field, json& out) const {
        const std::string name = field.name;
        if (value.kind == Value::Null) return void(out.erase(name));
        if (value.kind != Value::Array) wrong_type(field, "an array of objects");
        json list = json::array();
        for (const Value& item : value.items) {
            if (item.kind != Value::Null && item.kind != Value::Object)
                wrong_type(field, "an array of objects");
            json element = json::object();
            if (item.kind == Value::Object) decode_struct(item, field.fields, element);
            list.push_back(std::move(element));
        }
        out[name] = std::move(list);
    }
};

}  // namespace

bool go_json_key_matches(std::string_view key, std::string_view field) {
    return key == field || fold_equal(key, field);
}

json decode_go_image_config(const std::string& text, const std::string& where) {
    ValueBuilder builder;
    bool parsed = false;
    try {
        parsed = json::sax_parse(text, &builder);
    } catch (const json::exception& e) {
        fail_input(where + ": bad JSON (" + std::string(e.what()) + ")");
    }
    if (!parsed) fail_input(where + ": bad JSON (byte " + std::to_string(builder.error_byte) + ")");
    if (builder.root.kind != Value::Object)
        fail_input(where + ": image config must be a JSON object");
    json out = json::object();
    Decoder(where).decode_struct(builder.root, kImage, out);
    return out;
}

}  // namespace cuvet::image
