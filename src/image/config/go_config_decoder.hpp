#pragma once
// The image config as the runtimes read it: Go's encoding/json decoding into the OCI image
// struct (docker, containerd and podman all do this), not a generic JSON lookup.
#include <nlohmann/json.hpp>
#include <string>

namespace cuvet::image {

// Decodes `text` with encoding/json's rules and returns the canonical config: keys spelt as
// the OCI struct spells them ("config", "Entrypoint", "diff_ids"…), each the value Go would
// hold. What Go does that a JSON lookup does not:
// - a key matches a field case-insensitively (with Go's folding: U+017F is 's', U+212A is
//   'k'), in document order, and the last match wins;
// - a repeated object field ("config", "Labels") merges into what is already there;
// - null clears a list or a map and leaves a string, a bool or a struct as it was;
// - keys of no field are ignored, and a value of the wrong type is an error (Go's
//   Unmarshal fails, so the runtime refuses the image): an input error naming `where`.
nlohmann::json decode_go_image_config(const std::string& text, const std::string& where);

// Whether a JSON key selects a struct field named `field`, as encoding/json compares them.
bool go_json_key_matches(std::string_view key, std::string_view field);

}  // namespace cuvet::image
