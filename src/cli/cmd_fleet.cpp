// `cuvet fleet scan` and `cuvet fleet report`: a whole fleet of images, checked in shards by
// workers some existing engine starts (a Kubernetes Indexed Job, a CI matrix), one result per
// image digest, merged into one report (docs/fleet.md). The work is in src/fleet; this file
// gathers options, prints progress and renders.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "conventions.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/fleet/fact_store.hpp"
#include "cuvet/fleet/image_sources.hpp"
#include "cuvet/fleet/report.hpp"
#include "cuvet/fleet/result_store.hpp"
#include "cuvet/fleet/scan.hpp"
#include "cuvet/report/fail_on.hpp"
#include "exit_codes.hpp"
#include "output_format.hpp"
#include "report_setup.hpp"
#include "targets.hpp"

namespace cuvet::cli {
namespace {

struct FleetScanArgs {
    ImageArgs image;
    std::vector<std::string> lists;
    std::vector<std::string> pods;
    std::string registry;
    std::string prefix;
    std::string shard;
    unsigned shards = 0;
    std::string out;
    std::vector<std::string> drivers;
    std::vector<std::string> gpus;
    std::string nodes;
    std::vector<std::string> env;
    bool nvidia_start = true;
    std::vector<std::string> ignore;
    std::string rules_dir;
    std::string config;
    std::string fact_store;
    std::string fact_store_key_file;
    double fact_wait = 300;
};

struct FleetReportArgs {
    std::string dir;
    std::string format = "markdown";
    std::string output;
    std::string previous;
    std::string fail_on = "error";
};

// --shard I/N wins; else a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with --shards N
// (Kubernetes does not put the Job's completions in the environment: the manifest passes it).
fleet::Shard fleet_shard(const FleetScanArgs& args) {
    if (!args.shard.empty()) return fleet::parse_shard(args.shard);
    const char* index = std::getenv("JOB_COMPLETION_INDEX");
    if (index != nullptr) {
        if (args.shards == 0)
            fail_usage(
                "JOB_COMPLETION_INDEX is set but not the shard count: give --shards N (or "
                "CUVET_SHARDS), the Job's completions");
        return fleet::shard_from_index(index, args.shards);
    }
    if (args.shards != 0)
        fail_usage(
            "--shards needs JOB_COMPLETION_INDEX (an Indexed Job); elsewhere use --shard I/N");
    return {};
}

std::vector<std::string> fleet_references(const FleetScanArgs& args, const image::Access& access) {
    if (args.lists.empty() && args.pods.empty() && args.registry.empty())
        fail_usage("fleet scan needs images: --list FILE, --pods FILE or --registry HOST");
    if (!args.prefix.empty() && args.registry.empty())
        fail_usage("--prefix filters a --registry catalog; give --registry HOST");
    std::vector<std::string> references;
    for (const auto& list : args.lists)
        for (auto& reference : fleet::read_image_list(list)) references.push_back(reference);
    for (const auto& pods : args.pods)
        for (auto& reference : fleet::read_pod_images(pods)) references.push_back(reference);
    if (!args.registry.empty())
        for (auto& reference : fleet::catalog_images(args.registry, args.prefix, access))
            references.push_back(reference);
    // A fleet of none is a wrong path, prefix or kubectl context far more often than a
    // fleet with nothing to check: said, not passed as a clean scan.
    if (references.empty())
        fail_input("no images: the given --list, --pods and --registry name none");
    return references;
}

int run_fleet_scan(const FleetScanArgs& args) {
    const fleet::Shard shard = fleet_shard(args);  // usage errors before any work
    ReportSetup setup = load_report_setup("", args.config, args.ignore, args.rules_dir);
    fleet::ScanOptions options;
    options.shard = shard;
    options.out_dir = args.out;
    options.validate.open = args.image.open_options();
    options.validate.workers = args.image.workers;
    options.validate.targets =
        make_targets(args.drivers, args.gpus, args.nodes, setup.config, setup.db);
    options.validate.env_overrides = args.env;
    options.validate.nvidia_start = args.nvidia_start;
    const auto layer_cache = args.image.layer_cache();
    options.validate.layer_cache = layer_cache.get();
    options.context.tool_version = CUVET_VERSION;
    options.context.command = "validate";
    options.context.rules_version = setup.rules_version;
    options.context.rules_origin = setup.rules_origin;
    std::unique_ptr<fleet::RegistryFactStore> fact_store;
    if (!args.fact_store.empty()) {
        fact_store = std::make_unique<fleet::RegistryFactStore>(
            args.fact_store, options.validate.open.access,
            fleet::fact_store_key(args.fact_store_key_file),
            [](const std::string& line) { std::cerr << "cuvet fleet: " << line << "\n"; });
        options.fact_store = fact_store.get();
        options.validate.shared_facts = fact_store.get();
    } else if (!args.fact_store_key_file.empty()) {
        fail_usage("--fact-store-key-file authenticates a --fact-store; give --fact-store too");
    }
    options.fact_wait_seconds = args.fact_wait;
    options.on_note = [](const std::string& line) { std::cerr << "cuvet fleet: " << line << "\n"; };
    const auto references = fleet_references(args, options.validate.open.access);

    options.on_unreadable = [](const std::string& error) {
        std::cerr << "cuvet fleet: " << error << "\n";
    };
    options.on_share = [&shard](std::size_t images, std::size_t assigned) {
        std::cerr << "cuvet fleet: shard " << shard.str() << ": " << assigned << " of " << images
                  << " images\n";
    };
    options.on_image = [](const fleet::ImageEvent& event) {
        std::cerr << "cuvet fleet: [" << event.position << "/" << event.of << "] "
                  << event.reference << ": ";
        if (event.status == "skipped")
            std::cerr << "done before, skipped\n";
        else if (event.status == "error")
            std::cerr << "error: " << event.error << "\n";
        else
            std::cerr << event.status << ", " << human_size(event.bytes_inflated) << " inflated\n";
    };
    const fleet::ScanTotals totals = fleet::scan_fleet(references, options, setup.db, setup.config);
    std::cerr << "cuvet fleet: shard " << shard.str() << " finished: " << totals.checked
              << " checked, " << totals.already_done << " done before, " << totals.unreadable
              << " unreadable; " << human_size(totals.bytes_inflated) << " inflated\n";
    if (fact_store) {
        const auto stats = fact_store->stats();
        std::cerr << "cuvet fleet: fact store: " << stats.hits << " layers taken, " << stats.shared
                  << " shared, " << stats.misses << " absent, " << stats.refused << " refused, "
                  << stats.failed << " failed requests\n";
    }
    return exit_ok;
}

int run_fleet_report(const FleetReportArgs& args) {
    const auto fail_on = report::parse_fail_on(args.fail_on);
    if (!fail_on) fail_usage("--fail-on " + args.fail_on + ": expected error, warning or never");
    nlohmann::json merged = fleet::merge_results(fleet::read_results(args.dir));
    if (!args.previous.empty()) {
        std::ifstream in(args.previous, std::ios::binary);
        if (!in) fail_io(args.previous + ": cannot open the previous report");
        const auto previous = nlohmann::json::parse(in, nullptr, false);
        fleet::add_changes(merged, previous, args.previous);
    }
    std::string text = args.format == "json"   ? merged.dump(2) + "\n"
                       : args.format == "html" ? fleet::render_html(merged)
                                               : fleet::render_markdown(merged);
    if (args.output.empty()) {
        std::cout << text;
    } else {
        std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) fail_io(args.output + ": cannot write the report");
    }
    const auto& counts = merged["counts"];
    std::size_t failing = counts["fail"].get<std::size_t>() + counts["error"].get<std::size_t>();
    if (*fail_on == report::FailOn::warning || *fail_on == report::FailOn::info)
        failing += counts["warn"].get<std::size_t>();
    return *fail_on != report::FailOn::never && failing > 0 ? exit_findings : exit_ok;
}

void add_fleet_scan(CLI::App& fleet, Dispatch& dispatch) {
    auto args = std::make_shared<FleetScanArgs>();
    CLI::App* scan = fleet.add_subcommand(
        "scan", "check this worker's shard of a fleet of images; one result per image digest");
    args->image.add_to(*scan);
    // The images come from --list, --pods or --registry, not from one IMAGE argument.
    scan->remove_option(scan->get_option("IMAGE"));
    args->image.add_cache_option(*scan);
    scan->add_option("--list", args->lists, "a file of image references, one a line, # comments")
        ->allow_extra_args(false);
    scan->add_option("--pods", args->pods,
                     "`kubectl get pods -A -o json` (or a controller list) saved to a file: the "
                     "images of its containers and init containers")
        ->allow_extra_args(false);
    scan->add_option("--registry", args->registry,
                     "HOST[:PORT]: every tag of every repository in the registry's catalog");
    scan->add_option("--prefix", args->prefix, "with --registry: repositories starting with this");
    scan->add_option("--shard", args->shard, "I/N: this worker's share, 0 <= I < N (default 0/1)");
    scan->add_option(
        "--shards", args->shards,
        "N, with JOB_COMPLETION_INDEX as I (a Kubernetes Indexed Job: its completions)");
    scan->add_option("--out", args->out,
                     "the results folder, shared by the workers or merged later")
        ->required();
    scan->add_option("--driver", args->drivers, "a fleet driver version (repeatable)")
        ->allow_extra_args(false);
    scan->add_option("--gpu", args->gpus, "a target GPU: H100, sm_90 or 8.6 (repeatable)")
        ->allow_extra_args(false);
    scan->add_option("--nodes", args->nodes,
                     "`kubectl get nodes -o json`: each GPU node pool becomes a target, and each "
                     "result says which pools the image cannot run on");
    scan->add_option("--env", args->env, "KEY=VALUE the containers run with (repeatable)")
        ->allow_extra_args(false);
    add_runtime_start_option(*scan, args->nvidia_start);
    scan->add_option("--ignore", args->ignore, "a check id never to report (repeatable)")
        ->allow_extra_args(false);
    scan->add_option("--rules-dir", args->rules_dir,
                     "directory whose *.json replace the built-in rules tables");
    scan->add_option("--config", args->config,
                     "settings file (default: ./.cuvet.yaml when present; none: no file)");
    scan->add_option("--fact-store", args->fact_store,
                     "HOST[:PORT]/REPO: the fleet's layer facts, shared by the workers through "
                     "this registry repository (docs/fleet.md)");
    scan->add_option("--fact-store-key-file", args->fact_store_key_file,
                     "the fleet's secret that seals fact store entries (or $CUVET_FACT_STORE_KEY)");
    scan->add_option("--fact-wait", args->fact_wait,
                     "seconds to wait for another shard's facts of a base both check")
        ->check(CLI::NonNegativeNumber)
        ->default_str("300");
    read_flags_from_env(*scan);
    scan->callback([args, &dispatch] { dispatch.run = [args] { return run_fleet_scan(*args); }; });
}

void add_fleet_report(CLI::App& fleet, Dispatch& dispatch) {
    auto args = std::make_shared<FleetReportArgs>();
    CLI::App* report = fleet.add_subcommand(
        "report", "merge the results of a fleet scan: images by verdict, cause and node pool");
    report->add_option("DIR", args->dir, "the results folder of `fleet scan --out`")->required();
    report->add_option("--format,-f", args->format, "markdown (a CI job summary), json or html")
        ->check(CLI::IsMember({"markdown", "json", "html"}))
        ->default_str("markdown");
    report->add_option("--output,-o", args->output, "write the report to FILE instead of stdout");
    report->add_option("--previous", args->previous,
                       "an earlier `fleet report --format json`: what changed since");
    report
        ->add_option("--fail-on", args->fail_on,
                     "exit 1 when an image is: error (failing or unreadable), warning, or never")
        ->default_str("error");
    read_flags_from_env(*report);
    report->callback(
        [args, &dispatch] { dispatch.run = [args] { return run_fleet_report(*args); }; });
}

}  // namespace

void add_fleet_command(CLI::App& app, Dispatch& dispatch) {
    CLI::App* fleet = app.add_subcommand(
        "fleet", "check a whole fleet of images in shards, then merge the results (docs/fleet.md)");
    fleet->require_subcommand(1);
    add_fleet_scan(*fleet, dispatch);
    add_fleet_report(*fleet, dispatch);
}

}  // namespace cuvet::cli
