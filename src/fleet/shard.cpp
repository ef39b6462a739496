// Sharding a fleet by base layer: images that share their first layer are checked by one
// worker, whose layer cache then reads that base once for all of them.
#include "cuvet/fleet/shard.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "cuvet/core/error.hpp"

namespace cuvet::fleet {
namespace {

std::optional<unsigned> parse_count(std::string_view text) {
    unsigned value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

struct Piece {
    std::string base;
    std::vector<std::size_t> members;  // indexes into the items
};

}  // namespace

Shard parse_shard(std::string_view text, const std::string& option) {
    const auto slash = text.find('/');
    const auto index = parse_count(text.substr(0, slash));
    const auto count =
        slash == std::string_view::npos ? std::nullopt : parse_count(text.substr(slash + 1));
    if (!index || !count || *count == 0 || *index >= *count)
        fail_usage(option + " " + std::string(text) +
                   ": expected I/N with 0 <= I < N (the first of 3 shards is 0/3)");
    return {*index, *count};
}

Shard shard_from_index(std::string_view index_text, unsigned count) {
    const auto index = parse_count(index_text);
    if (!index)
        fail_usage("JOB_COMPLETION_INDEX=" + std::string(index_text) + ": not a shard index");
    if (count == 0) fail_usage("--shards 0: a fleet needs at least one shard");
    if (*index >= count)
        fail_usage("JOB_COMPLETION_INDEX=" + std::string(index_text) + " is not below --shards " +
                   std::to_string(count) + " (set --shards to the Job's completions)");
    return {*index, count};
}

std::vector<unsigned> assign_shards(const std::vector<ShardItem>& items, unsigned count) {
    std::vector<unsigned> shard_of(items.size(), 0);
    if (count <= 1 || items.empty()) return shard_of;
    std::map<std::string, std::vector<std::size_t>> by_base;
    for (std::size_t i = 0; i < items.size(); ++i) by_base[items[i].base].push_back(i);
    const std::size_t fair = (items.size() + count - 1) / count;
    std::vector<Piece> pieces;
    for (auto& [base, members] : by_base) {
        std::sort(members.begin(), members.end(),
                  [&](std::size_t a, std::size_t b) { return items[a].key < items[b].key; });
        for (std::size_t from = 0; from < members.size(); from += fair) {
            const auto to = std::min(members.size(), from + fair);
            pieces.push_back(
                {base, std::vector<std::size_t>(members.begin() + static_cast<long>(from),
                                                members.begin() + static_cast<long>(to))});
        }
    }
    std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
        return a.members.size() > b.members.size();
    });
    std::vector<std::size_t> load(count, 0);
    for (const auto& piece : pieces) {
        const auto lightest =
            static_cast<unsigned>(std::min_element(load.begin(), load.end()) - load.begin());
        load[lightest] += piece.members.size();
        for (auto member : piece.members) shard_of[member] = lightest;
    }
    return shard_of;
}

}  // namespace cuvet::fleet
