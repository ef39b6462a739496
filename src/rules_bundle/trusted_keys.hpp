#pragma once
// The keys a bundle's signature may come from: the project's release key,
// compiled in, then the user's (docs/rules-bundle.md, "Trust").
#include <filesystem>
#include <vector>

#include "signing.hpp"

namespace cuvet::rules_bundle::detail {

// The public half of the key cuvet's releases sign bundles with.
PublicKey project_key();

// project_key(), every config_dir/trusted-keys/*.pem ($XDG_CONFIG_HOME/cuvet when
// empty), then each of `extra` (--trust-key); a file that is not an Ed25519
// public key is an input error naming it.
std::vector<PublicKey> trusted_keys(const std::filesystem::path& config_dir,
                                    const std::vector<std::filesystem::path>& extra);

}  // namespace cuvet::rules_bundle::detail
