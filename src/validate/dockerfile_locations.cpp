// --dockerfile: a finding about /usr/lib/…/libcudnn.so.8 also points at the
// `RUN apt-get install libcudnn8=…` line, through the layer that wrote the file.
#include "cuvet/dockerfile/history.hpp"
#include "cuvet/validate/validate.hpp"

namespace cuvet::validate {

void add_dockerfile_locations(std::vector<report::Finding>& findings, const image::FileTree& tree,
                              const image::ImageInfo& info, const std::string& dockerfile_path,
                              const std::string& dockerfile_text) {
    auto dockerfile = dockerfile::parse(dockerfile_text, dockerfile_path);
    auto build = dockerfile::analyze(dockerfile);
    std::vector<std::string> created_by;
    std::vector<std::size_t> layer_history;  // layer index → history index
    for (std::size_t i = 0; i < info.config.history.size(); ++i) {
        created_by.push_back(info.config.history[i].created_by);
        if (!info.config.history[i].empty_layer) layer_history.push_back(i);
    }
    // Without one history entry per layer the layer → line mapping would be a guess.
    if (layer_history.size() != info.layers.size()) return;
    auto matched = dockerfile::match_history(dockerfile, build, created_by);
    for (auto& finding : findings) {
        std::vector<report::Location> added;
        for (const auto& location : finding.locations) {
            if (location.line != 0 || location.file.empty() || location.file[0] != '/') continue;
            const auto* entry = tree.find(location.file);
            if (entry == nullptr || entry->layer < 0 ||
                std::size_t(entry->layer) >= layer_history.size())
                continue;
            const auto& instruction = matched[layer_history[std::size_t(entry->layer)]];
            if (!instruction) continue;
            const auto& in = dockerfile.instructions[*instruction];
            report::Location line{dockerfile_path, in.start_line, in.end_line};
            bool dup = false;
            for (const auto& a : added) dup = dup || a.line == line.line;
            if (!dup) added.push_back(line);
        }
        for (auto& a : added) finding.locations.push_back(std::move(a));
    }
}

}  // namespace cuvet::validate
