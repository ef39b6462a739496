#include "report_setup.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cuvet/core/error.hpp"

namespace cuvet::cli {

ReportSetup load_report_setup(const std::string& fail_on, const std::string& config_path,
                              const std::vector<std::string>& ignore,
                              const std::string& rules_dir) {
    std::optional<report::FailOn> threshold;
    if (!fail_on.empty()) {
        threshold = report::parse_fail_on(fail_on);
        if (!threshold)
            fail_usage("--fail-on must be error, warning, info or never, not '" + fail_on + "'");
    }
    config::Config config = config::load_config(
        config_path.empty() ? std::nullopt : std::optional<std::filesystem::path>(config_path));
    for (const auto& id : ignore) {
        std::string upper = id;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        config.ignored.insert(upper);
    }
    rules::Database db = rules::Database::load(
        rules_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(rules_dir));
    return ReportSetup{threshold, std::move(config), std::move(db)};
}

void write_report(const report::Renderer& renderer, const std::vector<report::Finding>& findings,
                  report::ReportContext& context, const std::string& format,
                  const std::string& output, bool no_color) {
    if (output.empty()) {
        context.color = format == "text" && !no_color && report::stdout_wants_color();
        renderer.render(findings, context, std::cout);
        std::cout.flush();
        return;
    }
    context.color = false;
    std::ofstream out(output, std::ios::binary);
    if (!out) fail_io(output + ": cannot write: " + std::strerror(errno));
    renderer.render(findings, context, out);
    if (!out.flush()) fail_io(output + ": write failed");
}

}  // namespace cuvet::cli
