#pragma once
// Ed25519 over OpenSSL 3's EVP interface: keys from PEM, signatures over the
// exact bytes of a bundle's payload.
#include <string>

namespace cuvet::rules_bundle::detail {

struct PublicKey {
    std::string pem;     // as read (the cache keeps the signer's key)
    std::string raw;     // the 32 raw bytes
    std::string key_id;  // "ed25519:" + the first 16 hex digits of sha256(raw)
    std::string origin;  // "built-in", a file name: for messages
};

// Throws an input error naming `origin` unless `pem` is an Ed25519 public key.
PublicKey parse_public_key(const std::string& pem, const std::string& origin);

// The 64-byte signature of `message` with the Ed25519 private key in `private_pem`,
// and the key id of its public half; throws an input error naming `origin`.
struct Signature {
    std::string bytes;
    std::string key_id;
};
Signature sign(const std::string& private_pem, const std::string& origin,
               const std::string& message);

bool verify(const PublicKey& key, const std::string& message, const std::string& signature);

}  // namespace cuvet::rules_bundle::detail
