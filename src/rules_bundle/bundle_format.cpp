#include "bundle_format.hpp"

#include <ctime>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/rules_bundle/refused.hpp"
#include "image/registry/http_client.hpp"

namespace cuvet::rules_bundle::detail {
namespace {

using nlohmann::json;

json descriptor_json(const Descriptor& descriptor) {
    return {{"mediaType", descriptor.media_type},
            {"digest", descriptor.digest},
            {"size", descriptor.size}};
}

std::optional<Descriptor> read_descriptor(const json& node) {
    if (!node.is_object()) return std::nullopt;
    auto media_type = node.find("mediaType"), digest = node.find("digest"),
         size = node.find("size");
    if (media_type == node.end() || digest == node.end() || size == node.end() ||
        !media_type->is_string() || !digest->is_string() || !size->is_number_unsigned())
        return std::nullopt;
    return Descriptor{media_type->get<std::string>(), digest->get<std::string>(),
                      size->get<std::uint64_t>()};
}

}  // namespace

std::string make_payload(const Payload& payload) {
    json tables = json::object();
    for (const auto& file : payload.files) tables[file.name] = file.text;
    json out = {{"format", payload_format},
                {"sequence", payload.version.sequence},
                {"created", payload.version.created},
                {"tables", tables}};
    return out.dump();
}

Payload parse_payload(const std::string& bytes, const std::string& origin) {
    json parsed = json::parse(bytes, nullptr, false);
    if (!parsed.is_object() || parsed.value("format", "") != payload_format)
        fail_input(origin + ": not a " + std::string(payload_format) + " payload");
    auto sequence = parsed.find("sequence"), created = parsed.find("created"),
         tables = parsed.find("tables");
    if (sequence == parsed.end() || !sequence->is_number_unsigned() || created == parsed.end() ||
        !created->is_string() || tables == parsed.end() || !tables->is_object())
        fail_input(origin + ": the payload lacks sequence, created or tables");
    Payload payload;
    payload.version = {sequence->get<std::uint64_t>(), created->get<std::string>()};
    for (const auto& [name, text] : tables->items()) {
        if (!text.is_string()) fail_input(origin + ": table " + name + " is not a string");
        payload.files.push_back({name, text.get<std::string>(), origin + ": " + name});
    }
    return payload;
}

std::string make_manifest(const Descriptor& payload, const Descriptor& signature,
                          const BundleVersion& version) {
    json payload_json = descriptor_json(payload);
    payload_json["annotations"] = {{"org.opencontainers.image.title", "rules.json"}};
    json signature_json = descriptor_json(signature);
    signature_json["annotations"] = {{"org.opencontainers.image.title", "rules.json.sig"}};
    json manifest = {
        {"schemaVersion", 2},
        {"mediaType", manifest_media_type},
        {"artifactType", artifact_type},
        {"config",
         descriptor_json({empty_media_type,
                          "sha256:"
                          "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
                          2})},
        {"layers", json::array({payload_json, signature_json})},
        {"annotations",
         {{"org.opencontainers.image.created", version.created},
          {"dev.cuvet.rules.sequence", std::to_string(version.sequence)}}}};
    return manifest.dump(2);
}

Manifest parse_manifest(const std::string& bytes, const std::string& origin) {
    json parsed = json::parse(bytes, nullptr, false);
    if (!parsed.is_object() || parsed.value("artifactType", "") != artifact_type)
        refuse_bundle(origin + ": not a cuvet rules bundle (artifactType is not " +
                      std::string(artifact_type) + ")");
    auto layers = parsed.find("layers");
    if (layers == parsed.end() || !layers->is_array())
        refuse_bundle(origin + ": the bundle's manifest has no layers");
    Manifest manifest;
    bool have_payload = false;
    for (const auto& layer : *layers) {
        auto descriptor = read_descriptor(layer);
        if (!descriptor) refuse_bundle(origin + ": a malformed descriptor in the manifest");
        if (descriptor->media_type == payload_media_type) {
            if (have_payload) refuse_bundle(origin + ": the bundle has two payloads");
            manifest.payload = *descriptor;
            have_payload = true;
        } else if (descriptor->media_type == signature_media_type) {
            if (manifest.signature) refuse_bundle(origin + ": the bundle has two signatures");
            manifest.signature = *descriptor;
        }
    }
    if (!have_payload) refuse_bundle(origin + ": the bundle has no rules payload");
    return manifest;
}

std::string make_signature_document(const SignatureDocument& document) {
    json out = {{"algorithm", "ed25519"},
                {"key_id", document.key_id},
                {"payload_digest", document.payload_digest},
                {"signature", image::base64_encode(document.signature)}};
    return out.dump();
}

SignatureDocument parse_signature_document(const std::string& bytes, const std::string& origin) {
    json parsed = json::parse(bytes, nullptr, false);
    if (!parsed.is_object() || parsed.value("algorithm", "") != "ed25519" ||
        !parsed.contains("key_id") || !parsed.contains("signature") ||
        !parsed.contains("payload_digest") || !parsed["key_id"].is_string() ||
        !parsed["signature"].is_string() || !parsed["payload_digest"].is_string())
        refuse_bundle(origin + ": the signature blob is not an Ed25519 signature document");
    return {parsed["key_id"].get<std::string>(), parsed["payload_digest"].get<std::string>(),
            image::base64_decode(parsed["signature"].get<std::string>())};
}

std::string utc_now() {
    std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

}  // namespace cuvet::rules_bundle::detail
