#include "signing.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

#include "cuvet/core/error.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::rules_bundle::detail {
namespace {

struct KeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BioFree {
    void operator()(BIO* bio) const { BIO_free(bio); }
};
struct ContextFree {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

Key read_pem(const std::string& pem, bool private_key) {
    std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    if (!bio) return nullptr;
    return Key(private_key ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                           : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
}

std::string raw_public(EVP_PKEY* key) {
    std::string raw(32, '\0');
    std::size_t length = raw.size();
    if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(raw.data()), &length) !=
            1 ||
        length != raw.size())
        return {};
    return raw;
}

std::string key_id_of(const std::string& raw) {
    return "ed25519:" + image::sha256_digest(raw).substr(7, 16);
}

}  // namespace

PublicKey parse_public_key(const std::string& pem, const std::string& origin) {
    Key key = read_pem(pem, false);
    if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        fail_input(origin + ": not an Ed25519 public key in PEM form");
    PublicKey out;
    out.pem = pem;
    out.raw = raw_public(key.get());
    if (out.raw.empty()) fail_input(origin + ": cannot read the Ed25519 public key");
    out.key_id = key_id_of(out.raw);
    out.origin = origin;
    return out;
}

Signature sign(const std::string& private_pem, const std::string& origin,
               const std::string& message) {
    Key key = read_pem(private_pem, true);
    if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        fail_input(origin + ": not an Ed25519 private key in PEM form");
    std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
    std::string bytes(64, '\0');
    std::size_t length = bytes.size();
    // Ed25519 signs the message itself (no digest is chosen: the NULL md).
    if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
        EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(bytes.data()), &length,
                       reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1)
        fail_input(origin + ": signing failed");
    bytes.resize(length);
    return {bytes, key_id_of(raw_public(key.get()))};
}

bool verify(const PublicKey& key, const std::string& message, const std::string& signature) {
    Key public_key(EVP_PKEY_new_raw_public_key(
        EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(key.raw.data()),
        key.raw.size()));
    std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
    if (!public_key || !context ||
        EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, public_key.get()) != 1)
        return false;
    return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                            signature.size(),
                            reinterpret_cast<const unsigned char*>(message.data()),
                            message.size()) == 1;
}

}  // namespace cuvet::rules_bundle::detail
