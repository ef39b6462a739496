// `cuvet inventory IMAGE`: every CUDA-stack component, each copy, with its
// version and where that version was read (docs/inventory-schema.md).
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/sbom/cyclonedx.hpp"
#include "cuvet/validate/validate.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct InventoryArgs {
    ImageArgs image;
    std::string format;
};

std::string text_report(const inventory::Inventory& inv) {
    // Every field is the image's text: escaped one by one, so that only this
    // layout's own newlines start lines.
    const auto f = [](std::string_view text) { return printable(text); };
    std::string out;
    const auto& d = inv.distro;
    if (d.source.empty())
        out += "distro: unknown (no os-release)\n";
    else
        out += "distro: " + f(d.pretty_name.empty() ? d.id + " " + d.version_id : d.pretty_name) +
               "  (" + f(d.source) + ")\n";
    out += "components:\n";
    for (const auto& c : inv.components) {
        char line[512];
        std::snprintf(line, sizeof line, "  %-16s %-20s %-6s ", f(c.name).c_str(),
                      c.version.empty() ? "?" : f(c.version).c_str(), f(c.source).c_str());
        out += line + f(c.location) + "\n";
        for (const auto& [key, value] : c.attributes)
            out += "      " + f(key) + " = " + f(value) + "\n";
        if (!c.versions_agree) out += "      warning: its evidence disagrees on the version\n";
        for (const auto& e : c.evidence)
            out += "      " + f(e.kind) + ": " + f(e.path) +
                   (e.version.empty() ? "" : " (" + f(e.version) + ")") + "\n";
    }
    if (!inv.env.empty()) out += "env:\n";
    for (const auto& [key, value] : inv.env) out += "  " + f(key) + "=" + f(value) + "\n";
    return out;
}

// The same scan validate makes (the driver floor needs the Stack), then one more
// pass that hashes the component files. Not one pass: which files are components
// is known only once the scan's inventory is built, and with a warm layer cache
// the scan reads no file bytes at all (a hash kept in the cache would be the way
// to one pass). The second pass opens the image again: from a registry or the
// daemon that is a second transfer of the layers.
int run_cyclonedx(const InventoryArgs& args) {
    const auto db = rules::Database::load();
    validate::Options options;
    options.open = args.image.open_options();
    options.workers = args.image.workers;
    auto layer_cache = args.image.layer_cache();
    options.layer_cache = layer_cache.get();
    auto scanned = validate::scan(args.image.path, options, db);
    sbom::BomInput input;
    input.analysis = scanned.analysis.get();
    input.stack = &scanned.stack;
    input.db = &db;
    input.image_name = args.image.path;
    const auto opened = image::open_image(args.image.path, args.image.open_options());
    input.sha256 =
        sbom::file_sha256(*opened, scanned.analysis->tree,
                          sbom::component_files(scanned.analysis->inventory), args.image.workers);
    std::cout << sbom::cyclonedx(input).dump(2) << "\n";
    return 0;
}

int run_inventory(const InventoryArgs& args) {
    if (args.format == "cyclonedx") return run_cyclonedx(args);
    auto opened = image::open_image(args.image.path, args.image.open_options());
    inventory::AnalyzeOptions options;
    options.workers = args.image.workers;
    auto layer_cache = args.image.layer_cache();
    options.layer_cache = layer_cache.get();
    auto analysis = inventory::analyze(*opened, options);
    if (args.format == "json") {
        auto out = inventory::to_json(analysis.inventory);
        out["image"] = {{"path", args.image.path},
                        {"format", analysis.info.format},
                        {"reference", analysis.info.reference},
                        {"config_digest", analysis.info.config_digest},
                        {"platform", analysis.info.config.platform.str()}};
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << printable_lines(text_report(analysis.inventory));
    }
    return 0;
}

}  // namespace

void add_inventory_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<InventoryArgs>();
    auto* command = app.add_subcommand(
        "inventory", "every CUDA-stack component in the image, with versions and evidence");
    args->image.add_to(*command);
    args->image.add_cache_option(*command);
    add_format_option(*command, args->format, {"text", "json", "cyclonedx"});
    command->callback(
        [args, &dispatch] { dispatch.run = [args] { return run_inventory(*args); }; });
}

}  // namespace cuvet::cli
