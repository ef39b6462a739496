#pragma once
// The lines of a program's output that start with a prefix: the probes and sandboxed programs of
// the tests print one "key value" line per fact.
#include <sstream>
#include <string>
#include <vector>

namespace cuvet::test {

inline std::vector<std::string> lines_of(const std::string& text, const std::string& prefix) {
    std::vector<std::string> found;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(prefix, 0) == 0) found.push_back(line);
    return found;
}

// The first such line, or "" when there is none.
inline std::string line_of(const std::string& text, const std::string& prefix) {
    const auto found = lines_of(text, prefix);
    return found.empty() ? std::string() : found.front();
}

}  // namespace cuvet::test
