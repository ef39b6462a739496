#pragma once
// Parsing of the JSON documents around the layers: the image config and the
// helpers the docker-archive and OCI readers share.
#include <nlohmann/json.hpp>
#include <string>

#include "cuvet/image/image.hpp"

namespace cuvet::image {

// Parses JSON; a syntax error is an input error naming `where`.
nlohmann::json parse_json(const std::string& text, const std::string& where);

// Reads a config already in the canonical shape (keys spelt as the OCI struct spells them).
ImageConfig parse_config(const nlohmann::json& config, const std::string& where);

// Reads a config document as the runtimes do (go_config_decoder.hpp): what cuvet judges is
// what docker, containerd and podman run.
ImageConfig parse_config_text(const std::string& text, const std::string& where);

// Gives each non-empty layer the history line that created it.
void attach_history(ImageInfo& info);

// Accessors that turn a type mismatch into an input error naming the field.
std::string json_string(const nlohmann::json& object, const char* key, const std::string& where,
                        bool required);
std::uint64_t json_size(const nlohmann::json& object, const char* key, const std::string& where);

}  // namespace cuvet::image
