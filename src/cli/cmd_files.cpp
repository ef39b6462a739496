// `cuvet files IMAGE [--long] [GLOB]`: what the image really contains, after
// every layer and whiteout.
#include <fnmatch.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "cuvet/core/printable.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct FilesArgs {
    ImageArgs image;
    std::string glob;
    bool long_listing = false;
    std::string format;
};

bool glob_matches(const std::string& glob, const std::string& path) {
    if (glob.empty()) return true;
    // "usr/lib/*" means "/usr/lib/*"; "*cudnn*" matches anywhere ('*' crosses '/').
    std::string pattern = (glob[0] == '/' || glob[0] == '*') ? glob : "/" + glob;
    return fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
}

int run_files(const FilesArgs& args) {
    auto opened = image::open_image(args.image.path, args.image.open_options());
    image::ScanOptions scan;
    scan.workers = args.image.workers;
    image::FileTree tree = opened->scan(scan);

    if (args.format == "json") {
        nlohmann::json files = nlohmann::json::array();
        for (const auto& [path, entry] : tree.entries()) {
            if (!glob_matches(args.glob, path)) continue;
            nlohmann::json item = {{"path", path},
                                   {"type", image::to_string(entry.type)},
                                   {"mode", octal_mode(entry.mode)},
                                   {"size", entry.size},
                                   {"layer", entry.layer}};
            if (!entry.link_target.empty()) item["link_target"] = entry.link_target;
            files.push_back(std::move(item));
        }
        nlohmann::json out = {{"schema_version", 1}, {"image", args.image.path}, {"files", files}};
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::string buffer;
    for (const auto& [path, entry] : tree.entries()) {
        if (!glob_matches(args.glob, path)) continue;
        if (args.long_listing) {
            char line[96];
            std::snprintf(line, sizeof line, "%-8s %s %12llu  L%-3d ",
                          std::string(image::to_string(entry.type)).c_str(),
                          octal_mode(entry.mode).c_str(),
                          static_cast<unsigned long long>(entry.size), entry.layer);
            buffer += line;
        }
        buffer += printable(path);
        if (args.long_listing && !entry.link_target.empty())
            buffer += (entry.type == image::FileType::symlink ? " -> " : " => ") +
                      printable(entry.link_target);
        buffer += '\n';
        if (buffer.size() > (1 << 16)) std::cout << printable_lines(buffer), buffer.clear();
    }
    std::cout << printable_lines(buffer);
    return 0;
}

}  // namespace

void add_files_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<FilesArgs>();
    auto* command = app.add_subcommand("files", "list the merged file system of an image");
    args->image.add_to(*command);
    command->add_option("GLOB", args->glob, "only paths matching this glob ('*' crosses '/')");
    command->add_flag("--long,-l", args->long_listing, "type, mode, size and layer of each entry");
    add_format_option(*command, args->format, {"text", "json"});
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_files(*args); }; });
}

}  // namespace cuvet::cli
