#include "cuvet/cache/sealed_facts.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "cuvet/cache/store.hpp"
#include "facts_codec.hpp"

namespace cuvet::cache {
namespace {

// Not the local cache's magic: an entry of one kind is never mistaken for the other.
constexpr std::string_view sealed_magic = "CUVETSF\n";
constexpr std::size_t seal_size = 32;  // HMAC-SHA256

std::string hmac_sha256(std::string_view key, std::string_view bytes) {
    std::string out(seal_size, '\0');
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         reinterpret_cast<unsigned char*>(out.data()), &length);
    return out;
}

}  // namespace

std::string seal_facts(std::string_view key, const std::string& diff_id, const LayerFacts& facts) {
    detail::Writer out;
    out.raw(sealed_magic);
    out.u64(format_version);
    out.str(CUVET_VERSION);
    out.str(diff_id);
    detail::encode_facts(out, facts);
    std::string& bytes = out.bytes();
    bytes += hmac_sha256(key, bytes);
    return bytes;
}

UnsealedFacts unseal_facts(std::string_view key, const std::string& diff_id,
                           std::string_view entry) {
    if (entry.size() < sealed_magic.size() + seal_size ||
        entry.substr(0, sealed_magic.size()) != sealed_magic)
        return {std::nullopt, "not a cuvet fact-store entry"};
    const std::string_view body = entry.substr(0, entry.size() - seal_size);
    // Checked before a byte of the body is decoded: a forged body is never parsed.
    if (key.empty() ||
        CRYPTO_memcmp(hmac_sha256(key, body).data(), entry.data() + body.size(), seal_size) != 0)
        return {std::nullopt, "not sealed with this fleet's key"};
    try {
        detail::Reader in(body.substr(sealed_magic.size()));
        const std::uint64_t version = in.u64();
        const std::string analyzer = in.str();
        const std::string sealed_for = in.str();
        if (version != format_version || analyzer != CUVET_VERSION)
            return {std::nullopt, "written by cuvet " + analyzer + " (fact format " +
                                      std::to_string(version) + ")"};
        // Authentic, but for another layer: an entry replayed under this layer's name.
        if (sealed_for != diff_id) return {std::nullopt, "sealed for layer " + sealed_for};
        return {detail::decode_facts(in), ""};
    } catch (const std::exception&) {
        return {std::nullopt, "damaged"};
    }
}

}  // namespace cuvet::cache
