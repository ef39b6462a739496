#include "table_text.hpp"

#include <fstream>
#include <sstream>

#include "cuvet/rules/embedded.hpp"

namespace cuvet::rules {

std::optional<std::string> table_text(const Database& db, std::string_view table) {
    for (const auto& loaded : db.tables()) {
        if (loaded.name != table) continue;
        if (loaded.origin.ends_with("(built-in)")) {
            const std::string file = std::string(table) + ".json";
            for (const auto& [name, text] : embedded_rule_files())
                if (name == file) return std::string(text);
            return std::nullopt;
        }
        std::ifstream in(loaded.origin, std::ios::binary);
        if (!in) return std::nullopt;
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }
    return std::nullopt;
}

}  // namespace cuvet::rules
