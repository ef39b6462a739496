// `cuvet probe IMAGE`: run cuvet-probe inside the image on this host's GPU and
// report what the image's own CUDA stack does (versions, loaded copies, a
// cuDNN convolution checked against a CPU reference, then each framework's own
// smoke test with the image's python). `validate --probe` calls the same
// sandbox::run_probe.
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/frameworks/framework.hpp"
#include "cuvet/sandbox/framework_findings.hpp"
#include "cuvet/sandbox/host_driver.hpp"
#include "cuvet/sandbox/live_check.hpp"
#include "cuvet/sandbox/probe_runner.hpp"
#include "exit_codes.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct ProbeCommandArgs {
    ImageArgs image;
    std::string runtime = "auto";
    std::string container_image;
    std::string probe;
    int timeout = 120;
    std::vector<std::string> env;
    bool self_test = false;
    bool keep_rootfs = false;
    std::string format;
    std::string frameworks = "auto";
    int framework_timeout = 180;
    bool nvidia_start = true;
};

// The report module's renderers take over once `validate --gpu` uses this.
const char* severity_name(report::Severity severity) {
    switch (severity) {
        case report::Severity::info:
            return "info";
        case report::Severity::warning:
            return "warning";
        case report::Severity::error:
            return "error";
    }
    return "error";
}

nlohmann::json findings_json(const std::vector<report::Finding>& findings) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& finding : findings) {
        nlohmann::json locations = nlohmann::json::array();
        for (const auto& location : finding.locations) locations.push_back(location.file);
        out.push_back({{"id", finding.id},
                       {"severity", severity_name(finding.severity)},
                       {"title", finding.title},
                       {"message", finding.message},
                       {"locations", locations},
                       {"evidence", finding.evidence},
                       {"fix", finding.fix}});
    }
    return out;
}

nlohmann::json frameworks_json(const std::vector<sandbox::SmokeResult>& results) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& result : results) {
        out.push_back({{"framework", result.target.framework},
                       {"package_dir", result.target.package_dir},
                       {"interpreter", result.target.interpreter},
                       {"verdict", result.parsed ? result.verdict : "no_result"},
                       {"live", sandbox::live_verdict(result)},
                       {"stage", result.stage},
                       {"version", result.version},
                       {"error", result.error},
                       {"loaded", result.loaded},
                       {"framework_messages", result.framework_messages},
                       {"exit_code", result.process.exit_code},
                       {"timed_out", result.process.timed_out},
                       {"seconds", result.process.seconds}});
    }
    return out;
}

std::string library_line(const sandbox::ProbeReport& report, const char* role) {
    const sandbox::ProbeLibrary* lib = report.library(role);
    if (lib == nullptr) return "not reached";
    if (!lib->loaded)
        return "FAILED to load " + printable(lib->requested) + ": " + printable(lib->error);
    return "from " + printable(lib->path);
}

void print_text(const sandbox::ProbeOutcome& outcome, const std::string& target) {
    std::cout << "Probe       " << target << " (" << outcome.runtime << " runtime";
    if (outcome.runtime == "builtin") {
        char timing[96];
        std::snprintf(timing, sizeof timing, ", extracted %zu files in %.1f s, probe %.1f s",
                      outcome.extract.files, outcome.extract_seconds, outcome.process.seconds);
        std::cout << timing;
    }
    std::cout << ")\n";
    if (!outcome.plan.framework_library.empty())
        std::cout << "Framework   " << printable(outcome.plan.framework_library) << "\n";
    if (!outcome.injected.empty())
        std::cout << "Driver      " << outcome.injected.size() << " host libraries injected into "
                  << outcome.library_dir << "\n";
    if (outcome.report) {
        const auto& r = *outcome.report;
        std::cout << "Verdict     " << printable(r.verdict) << "\n";
        if (r.driver_version)
            std::cout << "Driver API  " << *r.driver_version << " (CUDA "
                      << sandbox::cuda_version_string(*r.driver_version) << "), cuInit "
                      << (r.cu_init.empty() ? "not called" : printable(r.cu_init)) << ", "
                      << r.device_count << " device(s)\n";
        if (!r.device_name.empty())
            std::cout << "GPU         " << printable(r.device_name) << " (compute capability "
                      << r.compute_capability << ")\n";
        if (r.runtime_version)
            std::cout << "CUDA rt     " << sandbox::cuda_version_string(*r.runtime_version) << " "
                      << library_line(r, "cudart") << "\n";
        if (r.cudnn_version)
            std::cout << "cuDNN       " << sandbox::cudnn_version_string(*r.cudnn_version) << " "
                      << library_line(r, "cudnn") << "\n";
        if (outcome.plan.expect.cudnn_version)
            std::cout << "Expected    cuDNN " << *outcome.plan.expect.cudnn_version << " ("
                      << printable(outcome.plan.expect.cudnn_source) << ")\n";
        for (const auto& conv : r.convs) {
            char line[200];
            std::snprintf(line, sizeof line,
                          "Conv %-6s %s (algo %d, max abs error %.3g, atol %.3g rtol %.3g)\n",
                          conv.dtype.c_str(), conv.ok ? "ok" : (conv.ran ? "MISMATCH" : "FAILED"),
                          conv.algo, conv.max_abs_error, conv.atol, conv.rtol);
            std::cout << line;
        }
    }
    for (const auto& result : outcome.frameworks) {
        std::cout << "Framework   " << result.target.framework
                  << (result.version.empty() ? "" : " " + printable(result.version)) << " ("
                  << printable(result.target.interpreter) << "): "
                  << (result.parsed
                          ? printable(result.verdict +
                                      (result.stage == "done" ? "" : " at " + result.stage))
                          : "no result");
        char timing[32];
        std::snprintf(timing, sizeof timing, ", %.1f s\n", result.process.seconds);
        std::cout << timing;
    }
    // Notes, findings and what the probe reports quote the image (paths, dlerror() text, a
    // framework's own words): one line each, whatever they hold.
    for (const auto& note : outcome.notes) std::cout << "Sandbox     " << printable(note) << "\n";
    for (const auto& finding : outcome.findings) {
        std::cout << severity_name(finding.severity) << " " << finding.id << " " << finding.title
                  << ": " << printable(finding.message) << "\n";
        for (const auto& evidence : finding.evidence)
            std::cout << "    " << printable(evidence) << "\n";
        if (!finding.fix.empty()) std::cout << "    fix: " << printable(finding.fix) << "\n";
    }
    if (outcome.findings.empty()) std::cout << "No findings.\n";
}

int run_probe_command(const ProbeCommandArgs& args) {
    sandbox::ProbeRunOptions options;
    options.runtime = args.runtime;
    options.container_image = args.container_image;
    options.image_archive = args.image.path;
    options.probe_binary =
        args.probe.empty() ? sandbox::find_probe_binary() : std::filesystem::path(args.probe);
    options.timeout = std::chrono::seconds(args.timeout);
    options.env_overrides = args.env;
    options.self_test = args.self_test;
    options.keep_rootfs = args.keep_rootfs;
    options.frameworks = sandbox::parse_framework_list(args.frameworks);
    options.framework_timeout = std::chrono::seconds(args.framework_timeout);
    options.nvidia_start = args.nvidia_start;
    // An engine run scans the image twice (the plan, then the frameworks): a registry image's
    // layers are fetched once.
    image::OpenOptions open = args.image.open_options();
    open.keep_fetched_blobs = true;
    const auto opened = image::open_image(args.image.path, open);
    const sandbox::ProbeOutcome outcome = sandbox::run_live_check(*opened, options);
    if (args.format == "json") {
        nlohmann::json out = {
            {"schema_version", 1},
            {"image", args.image.path},
            {"runtime", outcome.runtime},
            {"framework_library", outcome.plan.framework_library},
            {"expected_cudnn", outcome.plan.expect.cudnn_version.value_or("")},
            {"injected", outcome.injected},
            {"probe_exit_code", outcome.process.exit_code},
            {"probe",
             nlohmann::json::parse(outcome.process.out.empty() ? "null" : outcome.process.out,
                                   nullptr, false)},
            {"frameworks", frameworks_json(outcome.frameworks)},
            {"sandbox_notes", outcome.notes},
            {"findings", findings_json(outcome.findings)}};
        if (out["probe"].is_discarded()) out["probe"] = nullptr;
        std::cout << out.dump(2) << "\n";
    } else {
        print_text(outcome, args.image.path);
    }
    if (args.self_test)
        return outcome.report && outcome.report->reference_ok ? exit_ok : exit_findings;
    for (const auto& finding : outcome.findings) {
        if (finding.severity == report::Severity::error) return exit_findings;
    }
    return exit_ok;
}

}  // namespace

void add_probe_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<ProbeCommandArgs>();
    auto* command =
        app.add_subcommand("probe",
                           "live check on this host's GPU with the image's own libraries: a cuDNN "
                           "convolution, then each framework's smoke test (" +
                               frameworks::smoke_list(", ", true) + ")");
    args->image.add_to(*command);
    command
        ->add_option("--probe-runtime,--runtime", args->runtime,
                     "auto (podman with a CDI GPU spec, docker with the NVIDIA runtime, else "
                     "builtin), builtin "
                     "(cuvet's own rootless-container sandbox, needs root), docker or podman")
        ->check(CLI::IsMember({"auto", "builtin", "docker", "podman"}))
        ->default_str("auto");
    command->add_option("--container-image", args->container_image,
                        "docker/podman: the image reference the engine has (podman runs an archive "
                        "IMAGE directly)");
    command->add_option("--timeout", args->timeout, "kill the probe after this many seconds")
        ->default_str("120");
    command->add_option("--probe", args->probe, "the cuvet-probe binary (default: beside cuvet)");
    command->add_option("--env", args->env, "KEY=VALUE added to the image's Env (repeatable)");
    command->add_flag("--self-test", args->self_test, "run the probe's self-test (needs no GPU)");
    command
        ->add_option("--probe-frameworks", args->frameworks,
                     "frameworks whose own smoke test runs with the image's python after the cuDNN "
                     "probe: auto "
                     "(every one found), none, or a list of " +
                         frameworks::smoke_list(","))
        ->default_str("auto");
    command
        ->add_option("--framework-timeout", args->framework_timeout,
                     "kill a framework probe after this many seconds")
        ->default_str("180");
    add_runtime_start_option(*command, args->nvidia_start);
    command->add_flag("--keep-rootfs", args->keep_rootfs,
                      "leave the extracted root file system behind (debugging)");
    add_format_option(*command, args->format, {"text", "json"});
    command->callback(
        [args, &dispatch] { dispatch.run = [args] { return run_probe_command(*args); }; });
}

}  // namespace cuvet::cli
