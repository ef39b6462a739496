// `cuvet cache ls|prune`: what the layer fact cache holds, and trimming it.
// The cache itself (where it lives, what makes an entry usable) is cache::Store.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct CacheArgs {
    std::string format;
    std::string max_size;
    std::string key_file;
    bool all = false;
};

// The cache as validate would open it; a refused one is said on stderr and holds nothing.
cache::Store open_store(const CacheArgs& args) {
    cache::Store store(cache::Store::default_dir(), cache::default_max_bytes,
                       cache::explicit_key(args.key_file));
    if (!store.refused().empty())
        std::cerr << "cuvet: warning: layer cache not used: " << store.refused() << "\n";
    return store;
}

std::string short_digest(const std::string& digest) {
    return digest.size() > 19 ? digest.substr(0, 19) : digest;
}

int run_ls(const CacheArgs& args) {
    cache::Store store = open_store(args);
    auto entries = store.list();
    std::uint64_t total = 0;
    for (const auto& e : entries) total += e.bytes;
    if (args.format == "json") {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& e : entries)
            list.push_back({{"file", e.file.string()},
                            {"diff_id", e.diff_id},
                            {"blob_digest", e.blob_digest},
                            {"bytes", e.bytes},
                            {"usable", e.usable}});
        std::cout << nlohmann::json{{"dir", store.dir().string()},
                                    {"bytes", total},
                                    {"entries", list}}
                         .dump(2)
                  << "\n";
        return 0;
    }
    std::cout << "Cache   " << store.dir().string() << " (" << entries.size() << " layers, "
              << human_size(total) << ")\n";
    for (const auto& e : entries) {
        char line[96];
        std::snprintf(line, sizeof line, "  %10s  %-19s  %-19s  ", human_size(e.bytes).c_str(),
                      short_digest(e.diff_id).c_str(), short_digest(e.blob_digest).c_str());
        std::cout << line
                  << (e.usable ? ""
                               : "(unusable: damaged, forged, another key's or another cuvet's; "
                                 "prune removes it)")
                  << "\n";
    }
    return 0;
}

int run_prune(const CacheArgs& args) {
    cache::Store store = open_store(args);
    std::uint64_t keep = args.all                ? 0
                         : args.max_size.empty() ? cache::max_bytes_from_env()
                                                 : cache::parse_size(args.max_size);
    std::uint64_t freed = store.prune(keep);
    std::cout << "freed " << human_size(freed) << " in " << store.dir().string() << "\n";
    return 0;
}

}  // namespace

void add_cache_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<CacheArgs>();
    auto* command = app.add_subcommand(
        "cache",
        "the layer fact cache ($XDG_CACHE_HOME/cuvet): layers validated before are not read again");
    command->require_subcommand(1);
    auto* ls = command->add_subcommand("ls", "list cached layers, most recently used first");
    add_format_option(*ls, args->format, {"text", "json"});
    ls->callback([args, &dispatch] { dispatch.run = [args] { return run_ls(*args); }; });
    auto* prune = command->add_subcommand(
        "prune", "remove unusable entries, then the least recently used beyond the size limit");
    prune->add_option("--max-size", args->max_size,
                      "keep at most this much (\"500M\"; default $CUVET_CACHE_MAX or 2G)");
    prune->add_flag("--all", args->all, "remove every entry");
    prune->callback([args, &dispatch] { dispatch.run = [args] { return run_prune(*args); }; });
    for (auto* sub : {ls, prune})
        sub->add_option(
            "--cache-key-file", args->key_file,
            "the secret a shared cache's entries are authenticated with (or $CUVET_CACHE_KEY)");
}

}  // namespace cuvet::cli
