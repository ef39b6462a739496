// libFuzzer target for the layer fact cache: whatever lies at an entry path,
// Store::load returns facts or nullopt and never throws, crashes or reads out
// of bounds. Two shapes per input: the raw bytes (stopped by the HMAC tag),
// and the bytes as the payload of an entry sealed with the cache's own key
// (the key's holder is the only one who can get bytes past the tag, but the
// decoder behind it must still be total).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "cache/byte_codec.hpp"
#include "cuvet/cache/store.hpp"

namespace {

namespace fs = std::filesystem;

const cuvet::cache::Key key{"sha256:" + std::string(64, 'a'), "sha256:" + std::string(64, 'b')};

struct Fixture {
    fs::path dir = fs::temp_directory_path() / ("cuvet-fuzz-cache-" + std::to_string(::getpid()));
    cuvet::cache::Store store{dir};
    std::string secret;
    fs::path entry;
    Fixture() {
        std::ifstream in(dir / "key", std::ios::binary);
        secret.assign(std::istreambuf_iterator<char>(in), {});
        store.save(key, {});
        for (const auto& e : fs::directory_iterator(dir / "layers")) entry = e.path();
    }
};

void write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cuvet::cache;
    static Fixture fixture;
    const std::string input(reinterpret_cast<const char*>(data), size);

    write(fixture.entry, input);
    (void)fixture.store.load(key);

    detail::Writer out;
    out.raw("CUVETLF\n");
    out.u64(format_version);
    out.str(CUVET_VERSION);
    out.str(key.diff_id);
    out.str(key.blob_digest);
    out.raw(input);
    std::string sealed = out.bytes();
    std::string tag(32, '\0');
    unsigned length = 0;
    HMAC(EVP_sha256(), fixture.secret.data(), static_cast<int>(fixture.secret.size()),
         reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size(),
         reinterpret_cast<unsigned char*>(tag.data()), &length);
    write(fixture.entry, sealed + tag);
    if (auto facts = fixture.store.load(key)) {
        std::size_t total = 0;
        for (const auto& e : facts->listing.entries) total += e.path.size() + e.link_target.size();
        for (const auto& [path, text] : facts->texts) total += path.size() + text.size();
        (void)total;
    }
    return 0;
}
