#pragma once
// The bundle as bytes (docs/rules-bundle.md, "Format"): an OCI 1.1 image
// manifest with its own artifactType, the empty config, and two blobs, the
// payload (every table and the version, the bytes that are signed) and the
// signature over them.
#include <string>
#include <vector>

#include "cuvet/rules/database.hpp"
#include "cuvet/rules_bundle/bundle.hpp"

namespace cuvet::rules_bundle::detail {

inline constexpr const char* manifest_media_type = "application/vnd.oci.image.manifest.v1+json";
inline constexpr const char* artifact_type = "application/vnd.cuvet.rules.bundle.v1";
inline constexpr const char* payload_media_type = "application/vnd.cuvet.rules.payload.v1+json";
inline constexpr const char* signature_media_type = "application/vnd.cuvet.rules.signature.v1+json";
inline constexpr const char* empty_media_type = "application/vnd.oci.empty.v1+json";
inline constexpr const char* empty_config = "{}";
inline constexpr const char* payload_format = "cuvet-rules-bundle/1";

struct Descriptor {
    std::string media_type;
    std::string digest;
    std::uint64_t size = 0;
};

struct Manifest {
    Descriptor payload;
    std::optional<Descriptor> signature;  // nullopt: an unsigned bundle
};

struct Payload {
    BundleVersion version;
    std::vector<rules::Database::File> files;  // {"cudnn.json", text, origin}
};

struct SignatureDocument {
    std::string key_id;
    std::string payload_digest;
    std::string signature;  // raw bytes
};

std::string make_payload(const Payload& payload);
// Throws an input error naming `origin` on anything but a well-formed payload.
Payload parse_payload(const std::string& bytes, const std::string& origin);

std::string make_manifest(const Descriptor& payload, const Descriptor& signature,
                          const BundleVersion& version);
// Throws BundleRefused naming `origin` when it is not a cuvet rules bundle.
Manifest parse_manifest(const std::string& bytes, const std::string& origin);

std::string make_signature_document(const SignatureDocument& document);
SignatureDocument parse_signature_document(const std::string& bytes, const std::string& origin);

// "2026-11-28T06:40:00Z" for now.
std::string utc_now();

}  // namespace cuvet::rules_bundle::detail
