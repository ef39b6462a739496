#include "cuvet/validate/validate.hpp"

#include "cuvet/checks/registry.hpp"
#include "cuvet/checks/summary.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/image/env.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/validate/stack_builder.hpp"
#include "roots.hpp"

namespace cuvet::validate {

Scan scan(const std::string& image_path, const Options& options, const rules::Database& db) {
    // A GPU name nobody knows is a usage error, found before the long scan.
    for (const auto& gpu : options.targets.gpus)
        if (db.gpu(gpu) == nullptr)
            fail_usage("--gpu " + gpu +
                       ": not a GPU, sm_XY or compute capability the rules database knows");
    Scan out;
    out.image = image::open_image(image_path, options.open);
    const image::Image& image = *out.image;
    inventory::AnalyzeOptions analyze;
    analyze.workers = options.workers;
    analyze.on_progress = options.on_progress;
    // An ENTRYPOINT outside the bin dirs the scan reads anyway (/opt/app/infer) is a root too.
    analyze.extra_elf_paths = entry_program_paths(image.info().config);
    analyze.extra_exec_dirs = entry_program_dirs(image.info().config);
    analyze.layer_cache = options.layer_cache;
    analyze.shared_facts = options.shared_facts;
    out.analysis = std::make_unique<inventory::Analysis>(inventory::analyze(image, analyze));
    auto& analysis = *out.analysis;
    // The workload runs with what the entry script exports, and `--env` on top.
    const auto script_env = entry_script_env(analysis);
    std::vector<std::string> exported;
    for (const auto& change : script_env) exported.push_back(change.name + "=" + change.value);
    auto& env = analysis.info.config.env;
    env =
        image::with_env_overrides(image::with_env_overrides(env, exported), options.env_overrides);
    out.stack = build_stack(analysis, options.targets, image_path, &db, options.nvidia_start);
    for (const auto& change : script_env) out.stack.env_origin[change.name] = change.origin;
    for (const auto& kv : options.env_overrides)
        out.stack.env_origin.erase(kv.substr(0, kv.find('=')));
    return out;
}

Result judge(Scan& scanned, const Options& options, const rules::Database& db,
             const config::Config& config) {
    const auto& stack = scanned.stack;
    const auto& analysis = *scanned.analysis;
    Result result;
    result.findings = checks::run_validate_checks(stack, db);
    if (!options.dockerfile_path.empty())
        add_dockerfile_locations(result.findings, analysis.tree, analysis.info,
                                 options.dockerfile_path, options.dockerfile_text);
    result.summary = checks::stack_summary(stack);
    result.info = analysis.info;
    // The live check compares its verdict with every static finding, and its own findings are
    // checks too: ignores and severity overrides apply once, to all of them.
    if (options.live_check) options.live_check(*scanned.image, result);
    result.silenced = config::apply(config, result.findings);
    return result;
}

Result validate(const std::string& image_path, const Options& options, const rules::Database& db,
                const config::Config& config) {
    Scan scanned = scan(image_path, options, db);
    return judge(scanned, options, db, config);
}

}  // namespace cuvet::validate
