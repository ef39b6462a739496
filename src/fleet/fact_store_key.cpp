#include <cstdlib>

#include "cuvet/cache/store.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/fleet/fact_store.hpp"
#include "text_file.hpp"

namespace cuvet::fleet {

std::string fact_store_key(const std::string& key_file) {
    std::string key, source;
    if (!key_file.empty()) {
        key = read_text_file(key_file, "the fact store key");
        if (!key.empty() && key.back() == '\n') key.pop_back();
        source = key_file;
    } else if (const char* text = std::getenv("CUVET_FACT_STORE_KEY"); text && *text) {
        key = text;
        source = "CUVET_FACT_STORE_KEY";
    } else {
        fail_usage(
            "--fact-store needs the fleet's key: --fact-store-key-file FILE or "
            "CUVET_FACT_STORE_KEY (a secret every worker holds)");
    }
    if (key.size() < cache::min_key_bytes)
        fail_usage(source + ": the fact store key needs at least " +
                   std::to_string(cache::min_key_bytes) +
                   " bytes (openssl rand -hex 32 makes one)");
    return key;
}

}  // namespace cuvet::fleet
