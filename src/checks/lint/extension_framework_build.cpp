#include "checks/lint/extension_framework_build.hpp"

#include <cctype>

#include "checks/lint/lint_support.hpp"

namespace cuvet::checks::lint {
namespace {

// The framework release a local version names after a catalog record's import name:
// "+cu12torch2.6cxx11abiFALSE" → (pytorch, 2.6). nullopt when it names none.
struct BuiltFor {
    const rules::FrameworkRecord* framework = nullptr;
    rules::Version release;
};

std::optional<BuiltFor> built_for(const std::string& version, const rules::Database& db) {
    const auto plus = version.find('+');
    if (plus == std::string::npos) return std::nullopt;
    const std::string local = version.substr(plus + 1);
    for (const auto& record : db.framework_catalog().records()) {
        for (const auto& name : record.import_names) {
            for (auto at = local.find(name); at != std::string::npos;
                 at = local.find(name, at + 1)) {
                std::size_t end = at + name.size();
                std::string digits;
                while (end < local.size() &&
                       (std::isdigit(static_cast<unsigned char>(local[end])) ||
                        (local[end] == '.' && !digits.empty() && digits.back() != '.')))
                    digits += local[end++];
                while (!digits.empty() && digits.back() == '.') digits.pop_back();
                if (digits.find('.') == std::string::npos) continue;  // "torch2" says too little
                if (auto release = rules::Version::parse(digits))
                    return BuiltFor{&record, *release};
            }
        }
    }
    return std::nullopt;
}

// The release of `framework` the stage runs: its last pinned install, else its base image's.
std::optional<rules::Version> installed_release(const dockerfile::StageFacts& stage,
                                                const rules::FrameworkRecord& framework,
                                                const rules::Database& db, std::string& from) {
    std::optional<rules::Version> release;
    for (const auto& p : stage.packages) {
        const auto match = framework_wheel(p, db);
        if (!match || match->framework != &framework ||
            match->kind != rules::WheelMatch::Kind::spelling || !p.pinned)
            continue;
        if (auto v = rules::Version::parse(p.version.substr(0, p.version.find('+')))) {
            release = v;
            from = p.word + " (line " + std::to_string(p.line) + ")";
        }
    }
    if (release) return release;
    const auto& base = stage.base;
    if (base.framework != framework.framework) return std::nullopt;
    std::string text = base.framework_version;
    if (base.kind == dockerfile::BaseKind::ngc) {
        const auto* row = db.ngc_container(base.framework, base.ngc_release);
        text = row ? row->framework_version : "";
    }
    // "2.4.0a0+07cecf4": the release before a pre-release or local tail.
    text = text.substr(0, text.find_first_not_of("0123456789."));
    if (auto v = rules::Version::parse(text)) {
        from = "the base image " + base.reference;
        return v;
    }
    return std::nullopt;
}

}  // namespace

std::vector<report::Finding> extension_framework_mismatches(const dockerfile::Facts& facts,
                                                            const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        for (const auto& p : stage.packages) {
            if (p.inherited || p.manager != dockerfile::Manager::pip || is_framework(p, db))
                continue;
            const auto built = built_for(p.version, db);
            if (!built) continue;
            std::string from;
            const auto installed = installed_release(stage, *built->framework, db, from);
            if (!installed || installed->truncated(2) == built->release.truncated(2)) continue;
            const std::string module = built->framework->import_names.front();
            auto f = finding(facts, "CUVL01", p.line, p.end_line);
            f.severity = report::Severity::error;
            f.message = (p.word.empty() ? p.name : p.word) + " is built for " + module + " " +
                        built->release.str() + ", but the stage runs " + module + " " +
                        installed->str() +
                        ": its C++ extension is linked against the other "
                        "release's symbols and fails to import (undefined symbol).";
            f.evidence.push_back(p.name + " " + p.version + ": the local version names " + module +
                                 " " + built->release.str());
            f.evidence.push_back(module + " " + installed->str() + " from " + from);
            f.fix = "Install the " + p.name + " wheel built for " + module + " " +
                    installed->truncated(2).str() + ", or build it from source in this stage.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace cuvet::checks::lint
