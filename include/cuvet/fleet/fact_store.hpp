#pragma once
// The fleet's one fact store (docs/fleet.md, "One fact store"): layer facts kept in a registry
// repository as OCI artifacts, one per layer, tagged by the layer's diff_id and the fact
// format, each sealed with a key the fleet's workers share (cache::seal_facts). A worker asks
// it for a layer its own cache does not know before reading the layer, and shares every layer
// it reads. An entry that does not open under the key is refused with one line saying why and
// the layer is read instead; the fresh facts then replace the entry.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuvet/cache/shared_facts.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::image {
class RegistryClient;
}

namespace cuvet::fleet {

struct FactStoreStats {
    std::size_t hits = 0, misses = 0, refused = 0, shared = 0, failed = 0;
};

// The fleet's key: the contents of `key_file` (one trailing newline dropped) when given, else
// $CUVET_FACT_STORE_KEY (a Kubernetes Secret or CI secret in the environment). Neither, or
// shorter than cache::min_key_bytes, is a usage error: a store nobody authenticates is never
// read. An unreadable file is Error(io).
std::string fact_store_key(const std::string& key_file);

class RegistryFactStore final : public cache::SharedFacts {
public:
    // `repository`: "HOST[:PORT]/REPO" (docker:// allowed), reached with `access` (the same
    // auth and TLS as the images). `key`: the fleet's secret, at least cache::min_key_bytes.
    // `log` hears one line per refused entry and the first failure to reach the store.
    // Throws cuvet::Error(usage) on a malformed repository or short key; a store that cannot
    // be reached is not an error: every load is then a miss.
    RegistryFactStore(const std::string& repository, const image::Access& access, std::string key,
                      std::function<void(const std::string&)> log);
    ~RegistryFactStore() override;

    std::optional<cache::LayerFacts> load(const std::string& diff_id) override;
    void save(const std::string& diff_id, const cache::LayerFacts& facts) override;
    // Whether an entry for the layer exists, unverified (a worker waiting for another's base).
    bool has(const std::string& diff_id);

    // "facts-v<format>-<hex of the diff_id>": where a layer's entry lives.
    static std::string tag_of(const std::string& diff_id);

    FactStoreStats stats() const;
    // The diff_ids of the layers shared since the last call: the layers this worker read.
    std::vector<std::string> take_shared();

private:
    std::string fetch_entry(const std::string& diff_id);
    void note_failure(const std::string& what);

    std::unique_ptr<image::RegistryClient> client_;
    std::string name_;  // "docker://host/repo", for messages
    std::string key_;
    std::function<void(const std::string&)> log_;
    mutable std::mutex mutex_;
    FactStoreStats stats_;
    std::vector<std::string> shared_since_;
    bool failure_told_ = false;
};

}  // namespace cuvet::fleet
