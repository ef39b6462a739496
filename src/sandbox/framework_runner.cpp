#include "cuvet/sandbox/framework_runner.hpp"

#include <algorithm>

namespace cuvet::sandbox {
namespace {

bool has_key(const std::vector<std::string>& env, std::string_view key) {
    return std::any_of(env.begin(), env.end(), [&](const std::string& entry) {
        return entry.size() > key.size() && entry.compare(0, key.size(), key) == 0 &&
               entry[key.size()] == '=';
    });
}

}  // namespace

std::vector<std::string> smoke_environment(std::vector<std::string> env) {
    // The image tree is read-only in the sandbox; byte-code caches are not worth a warning.
    for (const char* entry : {"PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1"}) {
        const std::string_view text(entry);
        if (!has_key(env, text.substr(0, text.find('=')))) env.emplace_back(entry);
    }
    return env;
}

std::vector<SmokeResult> run_framework_probes_in_chroot(const std::filesystem::path& rootfs,
                                                        const std::vector<SmokeTarget>& targets,
                                                        const ChrootOptions& sandbox) {
    std::vector<SmokeResult> results;
    ChrootOptions options = sandbox;
    options.environment = smoke_environment(sandbox.environment);
    for (const SmokeTarget& target : targets) {
        const ChrootRun run = run_image_program(
            rootfs, {target.interpreter, "-c", smoke_script(target.framework)}, options);
        results.push_back(parse_smoke_result(target, run.process));
        options.inject_driver = false;  // in place since the first run
    }
    return results;
}

std::vector<SmokeResult> run_framework_probes_in_container(
    const std::string& runtime, const std::string& container_image,
    const std::vector<SmokeTarget>& targets, const std::vector<std::string>& env_overrides,
    const EngineLimits& limits, bool gpu) {
    std::vector<SmokeResult> results;
    for (const SmokeTarget& target : targets) {
        ProcessSpec spec;
        spec.search_path = true;
        spec.inherit_environment = true;
        spec.timeout =
            limits.timeout + std::chrono::seconds(30);  // the engine's own timeout comes first
        const std::string name = new_container_name();
        spec.argv = engine_run_args(runtime, limits, gpu, name);
        for (const std::string& env : smoke_environment(env_overrides))
            spec.argv.insert(spec.argv.end(), {"-e", env});
        spec.argv.insert(spec.argv.end(), {"--entrypoint", target.interpreter, container_image,
                                           "-c", smoke_script(target.framework)});
        results.push_back(parse_smoke_result(target, run_engine_container(runtime, name, spec)));
    }
    return results;
}

}  // namespace cuvet::sandbox
