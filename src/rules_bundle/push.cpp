// `cuvet rules push`: validate, sign, push (docs/rules-bundle.md).
#include <fstream>
#include <sstream>

#include "bundle_format.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/rules_bundle/bundle.hpp"
#include "image/registry/registry_client.hpp"
#include "image/registry/registry_push.hpp"
#include "image/storage/sha256.hpp"
#include "signing.hpp"

namespace cuvet::rules_bundle {
namespace {

std::string read_file(const std::filesystem::path& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail_io(path.string() + ": cannot read " + what);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Exactly the tables of `dir`, each checked by the loaders as --rules-dir is;
// a table missing from it is an input error (a bundle replaces every table).
std::vector<rules::Database::File> read_tables(const std::filesystem::path& dir) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) fail_io(dir.string() + ": not a directory");
    std::vector<rules::Database::File> files;
    for (const auto& name : rules::Database::table_names()) {
        const auto path = dir / (name + ".json");
        if (!std::filesystem::exists(path, error))
            fail_input(path.string() + ": missing (a bundle carries every table)");
        files.push_back({name + ".json", read_file(path, "the table"), path.string()});
    }
    rules::Database::from_files(files);
    return files;
}

}  // namespace

PushResult push_bundle(const std::filesystem::path& rules_dir, const std::string& reference,
                       const PushOptions& options) {
    const std::string text = reference.rfind("docker://", 0) == 0 ? reference.substr(9) : reference;
    image::RegistryReference parsed = image::parse_registry_reference(text);
    if (!parsed.digest.empty()) fail_usage(reference + ": push to a tag, not a digest");
    detail::Payload payload;
    payload.files = read_tables(rules_dir);
    payload.version.created = detail::utc_now();
    payload.version.sequence =
        options.sequence.value_or(static_cast<std::uint64_t>(std::time(nullptr)));
    const std::string payload_bytes = detail::make_payload(payload);
    const std::string private_pem = read_file(options.private_key, "the private key");
    const detail::Signature signature =
        detail::sign(private_pem, options.private_key.string(), payload_bytes);
    const std::string payload_digest = image::sha256_digest(payload_bytes);
    const std::string signature_bytes =
        detail::make_signature_document({signature.key_id, payload_digest, signature.bytes});
    const detail::Descriptor payload_descriptor{detail::payload_media_type, payload_digest,
                                                payload_bytes.size()};
    const detail::Descriptor signature_descriptor{detail::signature_media_type,
                                                  image::sha256_digest(signature_bytes),
                                                  signature_bytes.size()};
    const std::string manifest =
        detail::make_manifest(payload_descriptor, signature_descriptor, payload.version);

    image::RegistryClient client(parsed, options.access, "pull,push");
    image::push_blob(client, image::sha256_digest(detail::empty_config), detail::empty_config);
    image::push_blob(client, payload_descriptor.digest, payload_bytes);
    image::push_blob(client, signature_descriptor.digest, signature_bytes);
    PushResult result;
    result.manifest_digest =
        image::push_manifest(client, parsed.tag, detail::manifest_media_type, manifest);
    result.version = payload.version;
    result.key_id = signature.key_id;
    result.tables = payload.files.size();
    return result;
}

}  // namespace cuvet::rules_bundle
