// `cuvet ldd IMAGE PATH`: what ld.so would load for PATH inside the image,
// as a tree like lddtree, with the rule that found each library and the
// copies it shadows.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "exit_codes.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct LddArgs {
    ImageArgs image;
    std::string program;
    std::string format;
    std::string ld_library_path;
    bool ld_library_path_set = false;
    std::vector<std::string> hwcaps;
    bool no_host_driver = false;
    bool trace = false;
};

std::string describe(const loader::Resolution& r, const loader::Graph& g) {
    using loader::Status;
    std::string out = printable(r.name) + " => ";
    if (r.status == Status::not_found) return out + "not found";
    if (r.status == Status::host_driver)
        out += "host driver (mounted by nvidia-container-toolkit)";
    else
        out += printable(r.path);
    if (r.status == Status::error) out += " (" + printable(r.note) + ")";
    out += "  [" + std::string(loader::to_string(r.rule));
    if (r.rule == loader::Rule::rpath || r.rule == loader::Rule::runpath)
        out += " of " + printable(r.source);
    if (r.rule == loader::Rule::already_loaded && r.object && g.objects[*r.object].interpreter)
        out += ": the dynamic loader";
    return out + "]";
}

void print_tree(const loader::Graph& g, std::size_t object, int depth, bool trace,
                std::vector<bool>& expanded, std::string& out) {
    std::string indent(std::size_t(depth) * 4, ' ');
    for (auto index : g.objects[object].needs) {
        const auto& r = g.resolutions[index];
        out += indent + describe(r, g) + "\n";
        if (trace) {
            for (const auto& a : r.trace)
                out += indent + "    tried " + printable(a.path) + " (" +
                       std::string(loader::to_string(a.rule)) + ", " +
                       std::string(loader::to_string(a.verdict)) + ")\n";
        }
        for (const auto& s : r.shadowed) out += indent + "    shadows " + printable(s) + "\n";
        if (!r.image_copy.empty() && r.status == loader::Status::host_driver)
            out += indent + "    image copy " + printable(r.image_copy) +
                   " is replaced by the host's\n";
        else if (!r.image_copy.empty())
            out += indent + "    warning: the image's copy hides the host driver's " +
                   printable(r.name) + "\n";
        if (r.object && !expanded[*r.object] && r.rule != loader::Rule::already_loaded) {
            expanded[*r.object] = true;
            print_tree(g, *r.object, depth + 1, trace, expanded, out);
        }
    }
}

nlohmann::json to_json(const loader::Graph& g) {
    nlohmann::json objects = nlohmann::json::array(), resolutions = nlohmann::json::array();
    for (const auto& o : g.objects) {
        objects.push_back({{"path", o.path},
                           {"file", o.file},
                           {"soname", o.soname},
                           {"names", o.names},
                           {"loaded_by", g.objects[o.loader].path},
                           {"host_provided", o.host_provided},
                           {"interpreter", o.interpreter},
                           {"inspected", o.inspected}});
    }
    for (const auto& r : g.resolutions) {
        nlohmann::json trace = nlohmann::json::array();
        for (const auto& a : r.trace)
            trace.push_back({{"path", a.path},
                             {"rule", loader::to_string(a.rule)},
                             {"source", a.source},
                             {"verdict", loader::to_string(a.verdict)}});
        nlohmann::json item = {{"name", r.name},
                               {"requester", g.objects[r.requester].path},
                               {"status", loader::to_string(r.status)},
                               {"rule", loader::to_string(r.rule)},
                               {"source", r.source},
                               {"path", r.path},
                               {"file", r.file},
                               {"shadowed", r.shadowed},
                               {"image_copy", r.image_copy},
                               {"note", r.note},
                               {"trace", trace}};
        resolutions.push_back(std::move(item));
    }
    return {{"objects", objects}, {"resolutions", resolutions}, {"default_dirs", g.default_dirs},
            {"lib", g.lib_dst},   {"notes", g.notes},           {"ok", g.ok()}};
}

int run_ldd(const LddArgs& args) {
    auto opened = image::open_image(args.image.path, args.image.open_options());
    inventory::AnalyzeOptions analyze;
    analyze.workers = args.image.workers;
    analyze.extra_elf_paths = {args.program};
    auto layer_cache = args.image.layer_cache();
    analyze.layer_cache = layer_cache.get();
    // The program may be a link (/usr/bin/python3): inspect its target too.
    auto analysis = inventory::analyze(*opened, analyze);
    if (analysis.files().data_entry(args.program) != nullptr &&
        analysis.files().elf(args.program) == nullptr) {
        auto target = analysis.files().data_entry(args.program)->path;
        if (target != args.program) {
            analyze.extra_elf_paths.push_back(target);
            analysis = inventory::analyze(*opened, analyze);
        }
    }
    loader::Options options;
    if (args.ld_library_path_set) options.ld_library_path = args.ld_library_path;
    if (!args.hwcaps.empty()) options.hwcaps = args.hwcaps;
    options.host_driver = !args.no_host_driver;
    if (!analysis.info.config.working_dir.empty())
        options.working_dir = analysis.info.config.working_dir;
    auto graph = loader::Loader(analysis.files(), options).resolve(args.program);

    if (args.format == "json") {
        auto out = to_json(graph);
        out["schema_version"] = 1;
        out["image"] = args.image.path;
        out["program"] = args.program;
        std::cout << out.dump(2) << "\n";
    } else {
        std::string out = printable(args.program) + "\n";
        std::vector<bool> expanded(graph.objects.size(), false);
        expanded[0] = true;
        print_tree(graph, 0, 1, args.trace, expanded, out);
        for (const auto& note : graph.notes) out += "note: " + printable(note) + "\n";
        std::cout << printable_lines(out);
    }
    return graph.ok() ? exit_ok : exit_findings;
}

}  // namespace

void add_ldd_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<LddArgs>();
    auto* command =
        app.add_subcommand("ldd", "what the dynamic loader would load for a program in the image");
    args->image.add_to(*command);
    args->image.add_cache_option(*command);
    command
        ->add_option("PATH", args->program, "absolute path of the program or library in the image")
        ->required();
    command
        ->add_option("--ld-library-path", args->ld_library_path,
                     "use this LD_LIBRARY_PATH instead of the image's Env")
        ->each([args](const std::string&) { args->ld_library_path_set = true; });
    command->add_option(
        "--hwcaps", args->hwcaps,
        "glibc-hwcaps levels the host supports, best first (default x86-64-v3 x86-64-v2)");
    command->add_flag("--no-host-driver", args->no_host_driver,
                      "do not assume nvidia-container-toolkit mounts the driver libraries");
    command->add_flag("--trace", args->trace, "show every path tried");
    add_format_option(*command, args->format, {"text", "json"});
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_ldd(*args); }; });
}

}  // namespace cuvet::cli
