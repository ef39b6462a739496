#include "output_format.hpp"

#include <cstdio>

namespace cuvet::cli {

void add_format_option(CLI::App& command, std::string& format, std::vector<std::string> choices) {
    format = choices.front();
    command.add_option("--format,-f", format, "output format")
        ->check(CLI::IsMember(choices))
        ->default_str(choices.front());
}

std::string human_size(std::uint64_t bytes) {
    static const char* units[] = {"B", "kB", "MB", "GB", "TB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1000 && unit < 4) value /= 1000, ++unit;
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

std::string octal_mode(std::uint32_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", mode & 07777);
    return text;
}

}  // namespace cuvet::cli
