#include "image/config/config_parser.hpp"

#include "cuvet/core/error.hpp"
#include "image/config/go_config_decoder.hpp"

namespace cuvet::image {

using nlohmann::json;

json parse_json(const std::string& text, const std::string& where) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        fail_input(where + ": bad JSON (byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception& e) {
        fail_input(where + ": bad JSON (" + std::string(e.what()) + ")");
    }
}

std::string json_string(const json& object, const char* key, const std::string& where,
                        bool required) {
    if (!object.is_object()) fail_input(where + ": expected a JSON object");
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        if (required) fail_input(where + ": missing \"" + key + "\"");
        return {};
    }
    if (!it->is_string()) fail_input(where + ": \"" + key + "\" must be a string");
    return it->get<std::string>();
}

std::uint64_t json_size(const json& object, const char* key, const std::string& where) {
    auto it = object.find(key);
    if (it == object.end()) return 0;
    if (!it->is_number_unsigned())
        fail_input(where + ": \"" + key + "\" must be a non-negative integer");
    return it->get<std::uint64_t>();
}

namespace {

std::vector<std::string> string_list(const json& object, const char* key,
                                     const std::string& where) {
    std::vector<std::string> out;
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return out;
    if (!it->is_array()) fail_input(where + ": \"" + key + "\" must be an array of strings");
    for (const auto& item : *it) {
        if (!item.is_string()) fail_input(where + ": \"" + key + "\" must be an array of strings");
        out.push_back(item.get<std::string>());
    }
    return out;
}

}  // namespace

ImageConfig parse_config(const json& config, const std::string& where) {
    if (!config.is_object()) fail_input(where + ": image config must be a JSON object");
    ImageConfig out;
    out.platform.os = json_string(config, "os", where, false);
    out.platform.architecture = json_string(config, "architecture", where, false);
    out.platform.variant = json_string(config, "variant", where, false);
    out.created = json_string(config, "created", where, false);
    if (auto it = config.find("config"); it != config.end() && it->is_object()) {
        const json& run = *it;
        out.env = string_list(run, "Env", where);
        out.entrypoint = string_list(run, "Entrypoint", where);
        out.cmd = string_list(run, "Cmd", where);
        out.working_dir = json_string(run, "WorkingDir", where, false);
        out.user = json_string(run, "User", where, false);
        if (auto labels = run.find("Labels"); labels != run.end() && labels->is_object())
            for (const auto& [key, value] : labels->items())
                if (value.is_string()) out.labels[key] = value.get<std::string>();
    }
    if (auto it = config.find("history"); it != config.end() && it->is_array()) {
        for (const auto& item : *it) {
            if (!item.is_object()) continue;
            HistoryEntry entry;
            entry.created = json_string(item, "created", where, false);
            entry.created_by = json_string(item, "created_by", where, false);
            entry.comment = json_string(item, "comment", where, false);
            entry.empty_layer = item.value("empty_layer", false);
            out.history.push_back(std::move(entry));
        }
    }
    if (auto it = config.find("rootfs"); it != config.end() && it->is_object())
        out.diff_ids = string_list(*it, "diff_ids", where);
    return out;
}

ImageConfig parse_config_text(const std::string& text, const std::string& where) {
    return parse_config(decode_go_image_config(text, where), where);
}

void attach_history(ImageInfo& info) {
    std::size_t layer = 0;
    for (const auto& entry : info.config.history) {
        if (entry.empty_layer) continue;
        if (layer >= info.layers.size()) break;
        info.layers[layer++].created_by = entry.created_by;
    }
}

}  // namespace cuvet::image
