// `cuvet image IMAGE`: the manifest and config summary — layers with sizes
// and the history line that created each, Env, platform, entrypoint.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "cuvet/core/printable.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct ImageCommandArgs {
    ImageArgs image;
    std::string format;
};

nlohmann::json to_json(const image::ImageInfo& info) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& layer : info.layers)
        layers.push_back({{"blob", layer.blob},
                          {"digest", layer.digest},
                          {"media_type", layer.media_type},
                          {"size", layer.size},
                          {"created_by", layer.created_by}});
    nlohmann::json history = nlohmann::json::array();
    for (const auto& entry : info.config.history)
        history.push_back({{"created", entry.created},
                           {"created_by", entry.created_by},
                           {"empty_layer", entry.empty_layer}});
    return {{"schema_version", 1},
            {"format", info.format},
            {"path", info.path},
            {"reference", info.reference},
            {"manifest_digest", info.manifest_digest},
            {"config_digest", info.config_digest},
            {"platform", info.config.platform.str()},
            {"created", info.config.created},
            {"env", info.config.env},
            {"entrypoint", info.config.entrypoint},
            {"cmd", info.config.cmd},
            {"working_dir", info.config.working_dir},
            {"user", info.config.user},
            {"labels", info.config.labels},
            {"layers", layers},
            {"history", history},
            {"other_images", info.other_images}};
}

std::string joined(const std::vector<std::string>& words) {
    if (words.empty()) return "(none)";
    return nlohmann::json(words).dump();
}

// Config fields are the image author's text: escaped before they reach a terminal.
void print_text(const image::ImageInfo& info) {
    std::ostringstream out;
    const auto& config = info.config;
    out << "Image       " << info.path << " (" << info.format << ")\n";
    if (!info.reference.empty()) out << "Reference   " << info.reference << "\n";
    if (!info.manifest_digest.empty()) out << "Manifest    " << info.manifest_digest << "\n";
    if (!info.config_digest.empty()) out << "Config      " << info.config_digest << "\n";
    out << "Platform    " << config.platform.str() << "\n";
    if (!config.created.empty()) out << "Created     " << config.created << "\n";
    out << "Entrypoint  " << joined(config.entrypoint) << "\n";
    out << "Cmd         " << joined(config.cmd) << "\n";
    if (!config.working_dir.empty()) out << "WorkingDir  " << config.working_dir << "\n";
    out << "Env\n";
    for (const auto& env : config.env) out << "  " << printable(env) << "\n";
    std::uint64_t total = 0;
    for (const auto& layer : info.layers) total += layer.size;
    out << "Layers      " << info.layers.size() << " (" << human_size(total) << ")\n";
    for (std::size_t i = 0; i < info.layers.size(); ++i) {
        const auto& layer = info.layers[i];
        std::string digest = layer.digest.size() > 19 ? layer.digest.substr(0, 19) : layer.digest;
        char line[64];
        std::snprintf(line, sizeof line, "  %2zu  %10s  %-19s  ", i, human_size(layer.size).c_str(),
                      digest.c_str());
        std::string created_by = layer.created_by.size() > 100
                                     ? layer.created_by.substr(0, 97) + "..."
                                     : layer.created_by;
        out << line << printable(created_by) << "\n";
    }
    if (!info.other_images.empty()) out << "Also in archive: " << joined(info.other_images) << "\n";
    std::cout << printable_lines(out.str());
}

int run_image(const ImageCommandArgs& args) {
    auto opened = image::open_image(args.image.path, args.image.open_options());
    if (args.format == "json")
        std::cout << to_json(opened->info()).dump(2) << "\n";
    else
        print_text(opened->info());
    return 0;
}

}  // namespace

void add_image_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<ImageCommandArgs>();
    auto* command =
        app.add_subcommand("image", "print the manifest and config summary of an image");
    args->image.add_to(*command);
    add_format_option(*command, args->format, {"text", "json"});
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_image(*args); }; });
}

}  // namespace cuvet::cli
