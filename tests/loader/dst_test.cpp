// Search path lists (LD_LIBRARY_PATH, DT_RPATH, DT_RUNPATH) are split in
// linear time and capped by search-paths: an image's Env may list 300,000 dirs.
#include "loader/dst.hpp"

#include <catch2/catch.hpp>
#include <chrono>

#include "cuvet/core/scan_limits.hpp"
#include "support/sanitizer.hpp"

using namespace cuvet;
using cuvet::loader::detail::split_search_path;

namespace {

std::string dirs_list(int count) {
    std::string list;
    for (int i = 0; i < count; ++i) list += (i ? ":/d" : "/d") + std::to_string(i);
    return list;
}

}  // namespace

TEST_CASE("split_search_path keeps ld.so's order and drops duplicates", "[loader][limits]") {
    const auto dirs = split_search_path("/a:/b/:/a:$ORIGIN/x::/b", ":", {"/o", "lib", "x86_64"});
    CHECK(dirs == std::vector<std::string>{"/a", "/b", "/o/x", ""});
}

TEST_CASE("split_search_path is linear and capped by search-paths", "[loader][limits]") {
    // 100,000 distinct dirs: duplicates looked up one by one cost 5·10⁹ comparisons.
    ScanLimits limits;
    limits.search_paths = 200000;
    set_scan_limits(limits);
    const std::string list = dirs_list(100000);
    const auto start = std::chrono::steady_clock::now();
    const auto dirs = split_search_path(list, ":;", {});
    const auto took = std::chrono::steady_clock::now() - start;
    set_scan_limits(ScanLimits{});
    CHECK(dirs.size() == 100000);
    // Linear takes ~0.3 s here, ~2 s under ASan beside two other tests; quadratic takes minutes.
#ifdef CUVET_TEST_UNDER_ASAN
    CHECK(took < std::chrono::seconds(10));
#else
    CHECK(took < std::chrono::seconds(2));
#endif
    // The default (1024) refuses the list: exit 3, naming the limit.
    CHECK_THROWS_AS(split_search_path(list, ":;", {}), LimitExceeded);
    CHECK_THROWS_WITH(split_search_path(dirs_list(1025), ":;", {}),
                      Catch::Contains("more than 1024 entries in one search path") &&
                          Catch::Contains("--limit search-paths="));
    CHECK(split_search_path(dirs_list(1024), ":;", {}).size() == 1024);
}
