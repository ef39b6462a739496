#include "cuvet/report/renderer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/report/xml_escape.hpp"
#include "renderers.hpp"

namespace cuvet::report {

const std::vector<std::string>& renderer_formats() {
    static const std::vector<std::string> formats = {"text",       "json", "sarif",      "junit",
                                                     "checkstyle", "gnu",  "codeclimate"};
    return formats;
}

std::unique_ptr<Renderer> make_renderer(std::string_view format) {
    if (format == "text") return detail::make_text_renderer();
    if (format == "json") return detail::make_json_renderer();
    if (format == "sarif") return detail::make_sarif_renderer();
    if (format == "junit") return detail::make_junit_renderer();
    if (format == "checkstyle") return detail::make_checkstyle_renderer();
    if (format == "gnu") return detail::make_gnu_renderer();
    if (format == "codeclimate") return detail::make_codeclimate_renderer();
    fail_usage("unknown format '" + std::string(format) +
               "' (expected text, json, sarif, junit, checkstyle, gnu or codeclimate)");
}

bool want_color(bool is_tty, const char* no_color_env) {
    return is_tty && (no_color_env == nullptr || no_color_env[0] == '\0');
}

bool stdout_wants_color() {
    return want_color(isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"));
}

// Applied once, where a report is built (cmd_validate, cmd_lint); the
// renderers take the findings in this order and keep it.
std::vector<Finding> sorted_for_report(std::vector<Finding> findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity)
            return static_cast<int>(a.severity) > static_cast<int>(b.severity);
        if (a.id != b.id) return a.id < b.id;
        std::string la = a.locations.empty() ? "" : a.locations.front().file;
        std::string lb = b.locations.empty() ? "" : b.locations.front().file;
        if (la != lb) return la < lb;
        int na = a.locations.empty() ? 0 : a.locations.front().line;
        int nb = b.locations.empty() ? 0 : b.locations.front().line;
        return na < nb;
    });
    return findings;
}

std::string xml_escape(std::string_view text) {
    // Names and strings chosen by an image's author: bytes that are not
    // UTF-8 and control characters (which XML 1.0 forbids even as character
    // references) become the escapes the text report shows ("\x1b", "\xff"),
    // keeping newline and tab; then the two non-characters XML 1.0 also
    // forbids (U+FFFE, U+FFFF), then XML's own five.
    const std::string shown = printable_lines(text);
    std::string out;
    out.reserve(shown.size());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const char c = shown[i];
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                if (c == '\xef' && shown.compare(i + 1, 2, "\xbf\xbe") == 0) {
                    out += "\\ufffe";
                    i += 2;
                } else if (c == '\xef' && shown.compare(i + 1, 2, "\xbf\xbf") == 0) {
                    out += "\\uffff";
                    i += 2;
                } else {
                    out += c;
                }
        }
    }
    return out;
}

namespace detail {

std::string summary_line(const std::vector<Finding>& findings) {
    if (findings.empty()) return "no findings";
    int counts[3] = {0, 0, 0};
    for (const auto& finding : findings) ++counts[static_cast<int>(finding.severity)];
    auto plural = [](int n, const char* word) {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
    };
    std::string parts;
    const char* words[3] = {"info", "warning", "error"};
    for (int s = 2; s >= 0; --s) {
        if (!counts[s]) continue;
        if (!parts.empty()) parts += ", ";
        parts += s == 0 ? std::to_string(counts[s]) + " info" : plural(counts[s], words[s]);
    }
    return plural(static_cast<int>(findings.size()), "finding") + " (" + parts + ")";
}

std::string artifact_name(std::string_view target) {
    std::string name(target);
    for (std::string_view transport : {"docker://", "docker-daemon:", "containers-storage:",
                                       "oci-archive:", "docker-archive:", "oci:"}) {
        if (name.rfind(transport, 0) == 0) {
            name.erase(0, transport.size());
            break;
        }
    }
    // A file or directory keeps its path; a reference drops its digest and tag,
    // which change on every build while the finding stays the same.
    if (target.find(':') == std::string_view::npos || name.find('/') == 0 ||
        name.rfind("./", 0) == 0)
        return name;
    if (auto at = name.find('@'); at != std::string::npos) name.erase(at);
    auto slash = name.rfind('/');
    auto colon = name.rfind(':');
    if (colon != std::string::npos && (slash == std::string::npos || colon > slash))
        name.erase(colon);
    return name;
}

std::string finding_fingerprint(const Finding& finding, const ReportContext& context) {
    // FNV-1a over what identifies the problem, not where the report was made:
    // the check, the message (it names the files and versions) and the artifact.
    std::uint64_t hash = 14695981039346656037ull;
    auto mix = [&hash](std::string_view text) {
        for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
        hash = (hash ^ 0xff) * 1099511628211ull;
    };
    mix(finding.id);
    mix(finding.message.empty() ? finding.title : finding.message);
    mix(context.targets.empty() ? "" : artifact_name(context.targets.front()));
    for (const auto& location : finding.locations) mix(location.file);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

Location primary_location(const Finding& finding, const ReportContext& context) {
    if (!finding.locations.empty()) return finding.locations.front();
    Location location;
    if (!context.targets.empty()) location.file = context.targets.front();
    return location;
}

}  // namespace detail
}  // namespace cuvet::report
