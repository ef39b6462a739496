#include "verify.hpp"

#include "cuvet/core/error.hpp"
#include "cuvet/rules_bundle/refused.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::rules_bundle::detail {

VerifiedBundle verify_bundle(const BundleBytes& bytes, const std::vector<PublicKey>& keys,
                             const std::string& origin) {
    const Manifest manifest = parse_manifest(bytes.manifest, origin);
    if (const std::string actual = image::sha256_digest(bytes.payload);
        actual != manifest.payload.digest || bytes.payload.size() != manifest.payload.size)
        refuse_bundle(origin + ": digest mismatch: the payload blob " + manifest.payload.digest +
                      " has content " + actual);
    if (!manifest.signature || bytes.signature.empty())
        refuse_bundle(origin + ": unsigned bundle: its manifest names no signature blob");
    if (const std::string actual = image::sha256_digest(bytes.signature);
        actual != manifest.signature->digest)
        refuse_bundle(origin + ": digest mismatch: the signature blob " +
                      manifest.signature->digest + " has content " + actual);
    const SignatureDocument signature = parse_signature_document(bytes.signature, origin);
    const PublicKey* signer = nullptr;
    for (const auto& key : keys)
        if (key.key_id == signature.key_id) signer = &key;
    if (!signer) {
        std::string trusted;
        for (const auto& key : keys)
            trusted += (trusted.empty() ? "" : ", ") + key.key_id + " (" + key.origin + ")";
        refuse_bundle(origin + ": signed with key " + signature.key_id +
                      ", which is not trusted (trusted: " + trusted +
                      "; add one with --trust-key)");
    }
    if (signature.payload_digest != manifest.payload.digest ||
        !verify(*signer, bytes.payload, signature.signature))
        refuse_bundle(origin + ": tampered bundle: the signature of key " + signer->key_id +
                      " does not match the payload " + manifest.payload.digest);
    VerifiedBundle verified{parse_payload(bytes.payload, origin), *signer};
    return verified;
}

}  // namespace cuvet::rules_bundle::detail
