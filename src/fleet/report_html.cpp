// The fleet report as one HTML page: no external assets (it is opened from a CI artifact,
// often offline), every text from an image escaped, and tables that sort on a header click and
// filter as one types, in a few lines of script that only reorder and hide rows.
#include <sstream>

#include "cuvet/fleet/report.hpp"
#include "cuvet/report/xml_escape.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

std::string html_text(const json& value, const std::string& unknown = "unknown") {
    if (value.is_string()) return report::xml_escape(value.get<std::string>());
    if (value.is_number()) return value.dump();
    if (value.is_array()) {
        std::string out;
        for (const auto& item : value) out += (out.empty() ? "" : ", ") + html_text(item);
        return out;
    }
    return unknown;
}

constexpr const char* page_head = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>cuvet fleet report</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f3f3f3}
th[data-order=up]::after{content:" \25B2"}th[data-order=down]::after{content:" \25BC"}
.fail,.error{color:#b00020}.warn{color:#a35a00}.pass{color:#1b5e20}
input{padding:.3em;width:30em}
</style></head><body>
)";

constexpr const char* page_script = R"(<script>
for (const table of document.querySelectorAll('table.sortable')) {
  table.querySelectorAll('th').forEach((th, column) => th.addEventListener('click', () => {
    const body = table.tBodies[0], rows = Array.from(body.rows);
    const up = th.dataset.order !== 'up';
    table.querySelectorAll('th').forEach(other => delete other.dataset.order);
    th.dataset.order = up ? 'up' : 'down';
    const key = r => r.cells[column].textContent, num = s => /^\d+$/.test(s);
    rows.sort((a, b) => { const x = key(a), y = key(b);
      const c = num(x) && num(y) ? x - y : x.localeCompare(y); return up ? c : -c; });
    rows.forEach(r => body.appendChild(r));
  }));
}
for (const input of document.querySelectorAll('input.filter')) {
  const table = document.getElementById(input.dataset.table);
  input.addEventListener('input', () => { const words = input.value.toLowerCase();
    for (const r of table.tBodies[0].rows) r.hidden = !r.textContent.toLowerCase().includes(words); });
}
</script></body></html>
)";

void table_head(std::ostringstream& out, const std::string& id,
                const std::vector<std::string>& columns) {
    out << "<input class=\"filter\" data-table=\"" << id << "\" placeholder=\"filter\">\n"
        << "<table class=\"sortable\" id=\"" << id << "\"><thead><tr>";
    for (const auto& column : columns) out << "<th>" << column << "</th>";
    out << "</tr></thead><tbody>\n";
}

void pools_table(const json& pools, std::ostringstream& out) {
    out << "<h2>Node pools</h2>\n";
    table_head(out, "pools",
               {"pool", "driver", "GPU", "product", "nodes", "images", "cannot run", "why",
                "images it cannot run"});
    for (const auto& pool : pools) {
        std::string why;
        for (const auto& [id, images] : pool["checks"].items())
            why += (why.empty() ? "" : ", ") + report::xml_escape(id) + " (" + images.dump() + ")";
        out << "<tr><td>" << html_text(pool["name"]) << "</td><td>" << html_text(pool["driver"])
            << "</td><td>" << html_text(pool["gpu"]) << "</td><td>" << html_text(pool["product"])
            << "</td><td>" << pool["nodes"] << "</td><td>" << pool["images"] << "</td><td>"
            << pool["cannot_run"] << "</td><td>" << why << "</td><td>"
            << html_text(pool["cannot_run_images"]) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
}

void causes_table(const json& causes, std::ostringstream& out) {
    out << "<h2>Causes</h2>\n";
    table_head(out, "causes", {"check", "library", "severity", "title", "images", "which"});
    for (const auto& cause : causes)
        out << "<tr><td>" << html_text(cause["check"]) << "</td><td>"
            << html_text(cause["library"], "—") << "</td><td class=\""
            << html_text(cause["severity"]) << "\">" << html_text(cause["severity"]) << "</td><td>"
            << html_text(cause["title"]) << "</td><td>" << cause["images"] << "</td><td>"
            << html_text(cause["references"]) << "</td></tr>\n";
    out << "</tbody></table>\n";
}

void images_table(const json& images, std::ostringstream& out) {
    out << "<h2>Images</h2>\n";
    table_head(out, "images",
               {"image", "verdict", "pools it cannot run on", "causes", "digest", "references"});
    for (const auto& image : images) {
        const std::string verdict = html_text(image["verdict"]);
        const std::string causes =
            image.contains("error") ? html_text(image["error"]) : html_text(image["causes"]);
        out << "<tr><td>" << html_text(image["reference"]) << "</td><td class=\"" << verdict
            << "\">" << verdict << "</td><td>" << html_text(image["failing_pools"]) << "</td><td>"
            << causes << "</td><td>" << html_text(image["digest"], "") << "</td><td>"
            << html_text(image["references"]) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
}

}  // namespace

std::string render_html(const json& report) {
    std::ostringstream out;
    const auto& counts = report["counts"];
    out << page_head << "<h1>cuvet fleet: " << counts["images"] << " images</h1>\n<p>";
    for (const char* verdict : {"fail", "error", "warn", "pass"})
        out << "<span class=\"" << verdict << "\">" << verdict << ": " << counts[verdict]
            << "</span> &nbsp; ";
    const auto& bytes = report["bytes"];
    out << "</p>\n<p>Layer bytes inflated: " << html_text(bytes["inflated"])
        << "; the images' layer blobs summed per image: " << html_text(bytes["image_sizes"])
        << ".</p>\n";
    if (report.contains("changes")) {
        const auto& changes = report["changes"];
        out << "<h2>Since " << html_text(changes["previous"]) << "</h2>\n<ul>";
        for (const char* key : {"newly_failing", "fixed", "new_images", "gone"})
            out << "<li>" << key << ": " << changes[key].size() << " " << html_text(changes[key])
                << "</li>";
        out << "</ul>\n";
    }
    if (!report["pools"].empty()) pools_table(report["pools"], out);
    causes_table(report["causes"], out);
    images_table(report["images"], out);
    out << page_script;
    return out.str();
}

}  // namespace cuvet::fleet
