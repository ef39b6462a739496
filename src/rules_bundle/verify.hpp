#pragma once
// The checks every bundle passes before anything of it is used, at pull and
// again when a cached bundle is loaded: blob digests, the signature, the tables.
#include <string>
#include <vector>

#include "bundle_format.hpp"
#include "signing.hpp"

namespace cuvet::rules_bundle::detail {

struct BundleBytes {
    std::string manifest;
    std::string payload;
    std::string signature;  // empty for an unsigned bundle
};

struct VerifiedBundle {
    Payload payload;
    PublicKey signer;
};

// Throws BundleRefused (refused.hpp) with one line naming `origin` and the reason.
VerifiedBundle verify_bundle(const BundleBytes& bytes, const std::vector<PublicKey>& keys,
                             const std::string& origin);

}  // namespace cuvet::rules_bundle::detail
