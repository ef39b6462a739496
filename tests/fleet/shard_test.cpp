// Shards: the spec, JOB_COMPLETION_INDEX, and the assignment by base layer.
#include "cuvet/fleet/shard.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

#include "cuvet/core/error.hpp"

using namespace cuvet;

namespace {

std::string usage_error(const std::function<void()>& run) {
    try {
        run();
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::usage);
        return e.what();
    }
    return "";
}

std::vector<fleet::ShardItem> fleet_of(const std::vector<std::size_t>& images_per_base) {
    std::vector<fleet::ShardItem> items;
    for (std::size_t base = 0; base < images_per_base.size(); ++base)
        for (std::size_t i = 0; i < images_per_base[base]; ++i)
            items.push_back({"sha256:img" + std::to_string(base) + "-" + std::to_string(i),
                             "sha256:base" + std::to_string(base)});
    return items;
}

}  // namespace

TEST_CASE("fleet shard: I/N and JOB_COMPLETION_INDEX with a count", "[fleet]") {
    CHECK(fleet::parse_shard("2/3").index == 2);
    CHECK(fleet::parse_shard("2/3").count == 3);
    CHECK(fleet::shard_from_index("1", 4).str() == "1/4");
    for (const char* bad : {"3/3", "1", "a/3", "1/0", "-1/3", "1/3/4", ""})
        CHECK(usage_error([&] { fleet::parse_shard(bad); }) ==
              "--shard " + std::string(bad) +
                  ": expected I/N with 0 <= I < N (the first of 3 shards is 0/3)");
    CHECK(usage_error([] { fleet::shard_from_index("4", 4); }) ==
          "JOB_COMPLETION_INDEX=4 is not below --shards 4 (set --shards to the Job's completions)");
    CHECK(usage_error([] { fleet::shard_from_index("x", 4); }) ==
          "JOB_COMPLETION_INDEX=x: not a shard index");
}

TEST_CASE("fleet shard: images of one base stay together, shards are balanced, any order",
          "[fleet]") {
    // 3 bases of 4 images over 3 shards: one base a shard.
    auto items = fleet_of({4, 4, 4});
    auto shards = fleet::assign_shards(items, 3);
    std::map<std::string, std::set<unsigned>> shards_of_base;
    std::map<unsigned, int> load;
    for (std::size_t i = 0; i < items.size(); ++i) {
        shards_of_base[items[i].base].insert(shards[i]);
        ++load[shards[i]];
    }
    for (const auto& [base, on] : shards_of_base) CHECK(on.size() == 1);
    CHECK(load == std::map<unsigned, int>{{0, 4}, {1, 4}, {2, 4}});

    // The same set in another order gets the same assignment (every worker computes it alone).
    auto shuffled = items;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
    const auto reshuffled = fleet::assign_shards(shuffled, 3);
    for (std::size_t i = 0; i < shuffled.size(); ++i) {
        const auto at = std::find_if(items.begin(), items.end(),
                                     [&](const auto& item) { return item.key == shuffled[i].key; });
        CHECK(reshuffled[i] == shards[static_cast<std::size_t>(at - items.begin())]);
    }

    // One big base is cut into fair shares rather than leave workers idle.
    items = fleet_of({10, 1, 1});
    shards = fleet::assign_shards(items, 3);
    load.clear();
    for (auto shard : shards) ++load[shard];
    CHECK(load == std::map<unsigned, int>{{0, 4}, {1, 4}, {2, 4}});
    CHECK(fleet::assign_shards(items, 1) == std::vector<unsigned>(items.size(), 0));
}
