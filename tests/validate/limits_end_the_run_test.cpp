// A scan limit hit while the stack is built ends the run with exit 3. Parts of the stack builder
// skip an object they cannot resolve; a limit must not be read as such an object, or an image
// whose search path is over the limit would be judged clean unread (the red team's 300,000-entry
// LD_LIBRARY_PATH gave "nothing it runs breaks").
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/process.hpp"

using namespace cuvet::test;

namespace {

ProcessResult validate_with_search_path(std::size_t dirs) {
    CudaImage img;
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.torch("2.1.0+cu121", "12.1",
              {"/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12"});
    std::string path = "LD_LIBRARY_PATH=/d0";
    for (std::size_t i = 1; i < dirs; ++i) path += ":/d" + std::to_string(i);
    img.env.push_back(path);
    REQUIRE(img.fs().error().empty());
    return run_shell(shell_quote(CUVET_BINARY_PATH) + " validate --no-cache --no-progress " +
                     shell_quote(img.write().string()));
}

}  // namespace

TEST_CASE("a search path over search-paths ends validate with exit 3, not a clean verdict",
          "[validate][limits]") {
    const auto within = validate_with_search_path(16);
    INFO(within.out << within.err);
    CHECK(within.exit_code != 3);
    CHECK(within.err.find("search-paths") == std::string::npos);
    const auto over = validate_with_search_path(2000);
    INFO(over.out << over.err);
    CHECK(over.exit_code == 3);
    CHECK_THAT(over.err, Catch::Contains("search-paths"));
}
