#pragma once
// ASCII case folding for names that compare case-insensitively (package names, image
// references, file names): locale-independent, so a Turkish locale cannot change a match.
#include <cctype>
#include <string>

namespace cuvet {

inline std::string ascii_lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

}  // namespace cuvet
