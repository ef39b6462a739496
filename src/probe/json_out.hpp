#pragma once
// A minimal JSON writer. The probe runs inside arbitrary images, so it carries
// no library beyond the C++ runtime it links statically.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace cuvet::probe {

class JsonOut {
public:
    JsonOut& begin_object(std::string_view key = {}) { return open(key, '{'); }
    JsonOut& end_object() { return close('}'); }
    JsonOut& begin_array(std::string_view key = {}) { return open(key, '['); }
    JsonOut& end_array() { return close(']'); }

    JsonOut& field(std::string_view key, std::string_view value) {
        prefix(key);
        quote(value);
        return *this;
    }
    JsonOut& field(std::string_view key, const char* value) {
        if (value == nullptr) return null_field(key);
        return field(key, std::string_view(value));
    }
    JsonOut& field(std::string_view key, const std::string& value) {
        return field(key, std::string_view(value));
    }
    JsonOut& field(std::string_view key, bool value) {
        prefix(key);
        text_ += value ? "true" : "false";
        return *this;
    }
    JsonOut& field(std::string_view key, std::int64_t value) {
        prefix(key);
        text_ += std::to_string(value);
        return *this;
    }
    JsonOut& field(std::string_view key, int value) {
        return field(key, static_cast<std::int64_t>(value));
    }
    JsonOut& field(std::string_view key, std::size_t value) {
        return field(key, static_cast<std::int64_t>(value));
    }
    JsonOut& field(std::string_view key, double value) {
        prefix(key);
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.9g", value);
        // JSON has no inf/nan; a mismatch that large is reported as a string.
        if (value != value || value > 1e308 || value < -1e308) {
            quote(buffer);
        } else {
            text_ += buffer;
        }
        return *this;
    }
    JsonOut& null_field(std::string_view key) {
        prefix(key);
        text_ += "null";
        return *this;
    }
    JsonOut& value(std::string_view text) { return field({}, text); }

    const std::string& str() const { return text_; }

private:
    JsonOut& open(std::string_view key, char bracket) {
        prefix(key);
        text_ += bracket;
        first_ = true;
        return *this;
    }
    JsonOut& close(char bracket) {
        text_ += bracket;
        first_ = false;
        return *this;
    }
    void prefix(std::string_view key) {
        if (!first_) text_ += ',';
        first_ = false;
        if (!key.empty()) {
            quote(key);
            text_ += ':';
        }
    }
    void quote(std::string_view value) {
        text_ += '"';
        for (unsigned char c : value) {
            switch (c) {
                case '"':
                    text_ += "\\\"";
                    break;
                case '\\':
                    text_ += "\\\\";
                    break;
                case '\n':
                    text_ += "\\n";
                    break;
                case '\t':
                    text_ += "\\t";
                    break;
                case '\r':
                    text_ += "\\r";
                    break;
                default:
                    // Bytes >= 0x80 are escaped one by one so that a path in a
                    // foreign encoding still yields valid JSON.
                    if (c < 0x20 || c >= 0x80) {
                        char buffer[8];
                        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                        text_ += buffer;
                    } else {
                        text_ += static_cast<char>(c);
                    }
            }
        }
        text_ += '"';
    }

    std::string text_;
    bool first_ = true;
};

}  // namespace cuvet::probe
