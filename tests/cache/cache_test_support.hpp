#pragma once
// What the cache tests share: made-up layer keys, the entry seal the store writes (so a test can
// forge an entry exactly as an attacker who knows the format would), and a fingerprint of an
// analysis that shows any difference between a cached and a fresh run.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cuvet/cache/store.hpp"
#include "cuvet/image/file_tree.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/inventory/inventory.hpp"

namespace cuvet::test {

// A layer key from one character: digest "sha256:cccc…", diff_id the next character's.
inline cache::Key key(char c) {
    return {"sha256:" + std::string(64, c), "sha256:" + std::string(64, char(c + 1))};
}

// An entry's body with the store's seal after it: SHA-256 of the body without a key, else its
// HMAC-SHA-256 under the key (src/cache's entry format).
inline std::string seal(const std::string& body, const std::string& key) {
    std::string tag(32, '\0');
    unsigned length = 0;
    if (key.empty())
        EVP_Digest(body.data(), body.size(), reinterpret_cast<unsigned char*>(tag.data()), &length,
                   EVP_sha256(), nullptr);
    else
        HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(body.data()), body.size(),
             reinterpret_cast<unsigned char*>(tag.data()), &length);
    return body + tag;
}

// Every fact of an analysis as text: equal fingerprints mean a cached run saw what a fresh one did.
inline std::string fingerprint(const inventory::Analysis& a) {
    std::string out;
    for (const auto& [path, e] : a.tree.entries())
        out += path + " " + std::string(image::to_string(e.type)) + " " + std::to_string(e.mode) +
               " " + std::to_string(e.size) + " " + e.link_target + " L" + std::to_string(e.layer) +
               "\n";
    for (const auto& [path, info] : a.elfs)
        out += "elf " + path + " " + info.soname + " needed " + std::to_string(info.needed.size()) +
               " exports " + std::to_string(info.exported_symbols.size()) + "\n";
    for (const auto& path : a.not_elf) out += "not-elf " + path + "\n";
    for (const auto& [path, text] : a.texts) out += "text " + path + " " + text + "\n";
    return out + inventory::to_json(a.inventory).dump();
}

// An analysis, its fingerprint and the cache traffic it caused.
struct Run {
    std::string fingerprint;
    inventory::Analysis analysis;
    cache::Stats stats;
};

// One analysis of the image at `image_path`, through `store` when given, and what it did to the
// store (hits, misses, rejected and written entries).
inline Run analyze(const std::filesystem::path& image_path, cache::Store* store,
                   std::vector<std::string> extra = {}, bool verify = true) {
    image::OpenOptions open;
    open.verify_digests = verify;
    auto image = image::open_image(image_path, open);
    inventory::AnalyzeOptions options;
    options.layer_cache = store;
    options.extra_elf_paths = std::move(extra);
    options.workers = 2;
    cache::Stats before = store ? store->stats() : cache::Stats{};
    Run run;
    run.analysis = inventory::analyze(*image, options);
    run.fingerprint = fingerprint(run.analysis);
    if (store) {
        auto after = store->stats();
        run.stats = {after.hits - before.hits, after.misses - before.misses,
                     after.rejected - before.rejected, after.written - before.written};
    }
    return run;
}

}  // namespace cuvet::test
