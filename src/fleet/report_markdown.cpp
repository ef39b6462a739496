// The fleet report as Markdown for a CI job summary (GitHub caps a step summary at 1 MiB):
// counts and pools in full, causes and images cut to the first few.
#include <sstream>

#include "cuvet/fleet/report.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

constexpr std::size_t max_causes = 15;
constexpr std::size_t max_images = 30;
constexpr std::size_t max_changes = 20;

// Text from images (file names, references) cannot open a tag, end a cell or start code.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '|':
                out += "\\|";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '`':
                out += "'";
                break;
            case '\n':
            case '\r':
                out += ' ';
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string markdown_text(const json& value, const std::string& unknown = "unknown") {
    if (value.is_string()) return cell(value.get<std::string>());
    if (value.is_number()) return value.dump();
    return unknown;
}

std::string joined(const json& list, std::size_t limit) {
    std::string out;
    std::size_t shown = 0;
    for (const auto& item : list) {
        if (shown == limit) return out + ", … " + std::to_string(list.size() - shown) + " more";
        out += (shown++ ? ", " : "") + markdown_text(item);
    }
    return out;
}

std::string size_of(const json& bytes) {
    if (!bytes.is_number()) return "unknown";
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = bytes.get<double>();
    int unit = 0;
    for (; value >= 1024 && unit < 4; ++unit) value /= 1024;
    std::ostringstream out;
    out.precision(unit == 0 ? 0 : 1);
    out << std::fixed << value << " " << units[unit];
    return out.str();
}

void changes_section(const json& changes, std::ostringstream& out) {
    out << "\n### Since " << cell(changes.value("previous", "")) << "\n\n";
    for (const char* key : {"newly_failing", "fixed", "new_images", "gone"}) {
        const auto& list = changes.value(key, json::array());
        out << "- " << key << ": " << list.size();
        if (!list.empty()) out << " (" << joined(list, max_changes) << ")";
        out << "\n";
    }
}

}  // namespace

std::string render_markdown(const json& report) {
    std::ostringstream out;
    const auto& counts = report["counts"];
    out << "## cuvet fleet: " << counts["images"] << " images\n\n"
        << "| verdict | images |\n|---|---|\n";
    for (const char* verdict : {"fail", "error", "warn", "pass"})
        out << "| " << verdict << " | " << counts[verdict] << " |\n";
    const auto& bytes = report["bytes"];
    out << "\nLayer bytes inflated: " << size_of(bytes["inflated"])
        << "; the images' layer blobs summed per image: " << size_of(bytes["image_sizes"]) << ".";
    if (bytes.value("layer_reads", 0) > 0)
        out << " Layers read: " << bytes["layer_reads"] << " times, "
            << bytes["distinct_layers_read"] << " distinct (the rest from the fact store).";
    out << "\n";
    if (!report["pools"].empty()) {
        out << "\n### Node pools\n\n| pool | driver | GPU | images | cannot run | why |\n"
            << "|---|---|---|---|---|---|\n";
        for (const auto& pool : report["pools"]) {
            std::string why;
            for (const auto& [id, images] : pool["checks"].items())
                why += (why.empty() ? "" : ", ") + cell(id) + " (" + images.dump() + ")";
            out << "| " << markdown_text(pool["name"]) << " | " << markdown_text(pool["driver"])
                << " | " << markdown_text(pool["gpu"]) << " | " << pool["images"] << " | "
                << pool["cannot_run"] << " | " << why << " |\n";
        }
    }
    if (!report["causes"].empty()) {
        out << "\n### Causes\n\n| check | library | severity | images |\n|---|---|---|---|\n";
        std::size_t shown = 0;
        for (const auto& cause : report["causes"]) {
            if (shown++ == max_causes) break;
            out << "| " << markdown_text(cause["check"]) << " | "
                << markdown_text(cause["library"], "—") << " | " << markdown_text(cause["severity"])
                << " | " << cause["images"] << " |\n";
        }
        if (report["causes"].size() > max_causes)
            out << "\n… " << report["causes"].size() - max_causes
                << " more causes in the JSON report.\n";
    }
    if (report.contains("changes")) changes_section(report["changes"], out);
    std::size_t listed = 0, failing = 0;
    std::ostringstream rows;
    for (const auto& image : report["images"]) {
        const std::string verdict = image["verdict"];
        if (verdict != "fail" && verdict != "error") continue;
        if (failing++ >= max_images) continue;
        ++listed;
        const std::string why = verdict == "error" ? markdown_text(image.value("error", json("")))
                                                   : joined(image["causes"], 4);
        rows << "| " << markdown_text(image["reference"]) << " | " << verdict << " | "
             << joined(image["failing_pools"], 4) << " | " << why << " |\n";
    }
    if (failing > 0) {
        out << "\n### Failing images\n\n| image | verdict | pools it cannot run on | causes |\n"
            << "|---|---|---|---|\n"
            << rows.str();
        if (failing > listed) out << "\n… " << failing - listed << " more in the JSON report.\n";
    }
    return out.str();
}

}  // namespace cuvet::fleet
