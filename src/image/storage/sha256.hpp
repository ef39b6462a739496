#pragma once
#include <memory>
#include <string>
#include <string_view>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace cuvet::image {

// Incremental SHA-256 (OpenSSL EVP, which uses the CPU's SHA extensions).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(std::string_view bytes);
    std::string hex_digest();  // "sha256:<64 hex>"

private:
    EVP_MD_CTX* ctx_;
};

std::string sha256_digest(std::string_view bytes);

// "sha256:" followed by exactly 64 lowercase hex digits; anything else could
// name a path outside the layout.
bool is_valid_sha256_digest(std::string_view digest);

}  // namespace cuvet::image
