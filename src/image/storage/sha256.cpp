#include "image/storage/sha256.hpp"

#include <openssl/evp.h>

#include "cuvet/core/error.hpp"

namespace cuvet::image {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1)
        throw Error(ErrorKind::internal, "OpenSSL SHA-256 initialisation failed");
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

void Sha256::update(std::string_view bytes) { EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()); }

std::string Sha256::hex_digest() {
    unsigned char raw[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx_, raw, &length);
    static constexpr char hex[] = "0123456789abcdef";
    std::string text = "sha256:";
    for (unsigned int i = 0; i < length; ++i) {
        text += hex[raw[i] >> 4];
        text += hex[raw[i] & 15];
    }
    return text;
}

std::string sha256_digest(std::string_view bytes) {
    Sha256 hash;
    hash.update(bytes);
    return hash.hex_digest();
}

bool is_valid_sha256_digest(std::string_view digest) {
    constexpr std::string_view prefix = "sha256:";
    if (digest.size() != prefix.size() + 64 || digest.substr(0, prefix.size()) != prefix)
        return false;
    for (char c : digest.substr(prefix.size()))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace cuvet::image
