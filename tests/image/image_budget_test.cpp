// Issue 33: what all layers of one image hold together is bounded, not only
// each layer. Every layer here stays under its own path-bytes; the image
// crosses the limit only across layers (or by listing one layer many times).
#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// `count` layers, each with `names` files named by 1 KB (1 MB of names a layer).
fs::path write_wide_image(const TempDir& tmp, int count, int names, const std::string& name) {
    std::vector<std::vector<TarEntry>> layers;
    for (int layer = 0; layer < count; ++layer) {
        std::vector<TarEntry> entries = {dir("d/")};
        const std::string stem = "d/" + std::to_string(layer) + std::string(1000, 'n');
        for (int i = 0; i < names; ++i) entries.push_back(file(stem + std::to_string(i), ""));
        layers.push_back(std::move(entries));
    }
    return write_docker(tmp, layered_spec(std::move(layers), Compression::zstd), name);
}

ProcessResult files(const fs::path& image, std::vector<std::string> limits) {
    std::vector<std::string> args = {"files", image.string()};
    for (auto& limit : limits) args.insert(args.end(), {"--limit", std::move(limit)});
    return run_cuvet(args);
}

}  // namespace

TEST_CASE("image budget: names across layers past image-path-bytes are refused",
          "[image][limits]") {
    TempDir tmp;
    const fs::path image = write_wide_image(tmp, 3, 1000, "wide.tar");
    // Each layer holds about 1 MB of names, under path-bytes=2M; three are not.
    require_bad_input(files(image, {"path-bytes=2M", "image-path-bytes=2M"}),
                      "bytes of entry names and link targets across the image's layers (limit "
                      "image-path-bytes=2M");
    auto raised = files(image, {"path-bytes=2M", "image-path-bytes=4M"});
    INFO(raised.err);
    CHECK(raised.exit_code == 0);
}

TEST_CASE("image budget: entries across layers past the entries limit are refused",
          "[image][limits]") {
    TempDir tmp;
    const fs::path image = write_wide_image(tmp, 3, 1000, "many.tar");
    require_bad_input(files(image, {"entries=2500"}),
                      "more than 2500 entries across the image's layers (limit entries=2500");
    CHECK(files(image, {"entries=3100"}).exit_code == 0);
}

TEST_CASE("image budget: a manifest listing more layers than the layers limit is refused",
          "[image][limits]") {
    TempDir tmp;
    const fs::path image = write_wide_image(tmp, 5, 1, "tall.tar");
    for (const char* command : {"files", "image"}) {
        auto refused = run_cuvet({command, image.string(), "--limit", "layers=4"});
        require_bad_input(refused, "lists 5 layers, more than 4 (limit layers=4");
        CHECK(refused.err.find(image.string()) != std::string::npos);
        CHECK(run_cuvet({command, image.string(), "--limit", "layers=5"}).exit_code == 0);
    }
}
