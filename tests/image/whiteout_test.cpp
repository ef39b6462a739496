// Whiteouts and opaque directories, as the OCI image spec (layer.md,
// "Whiteouts") defines them.
#include "image/image_fixtures.hpp"

using namespace cuvet::test;

namespace {

Listing view_of(const std::vector<std::vector<TarEntry>>& layers) {
    TempDir tmp;
    auto path = write_docker(tmp, layered_spec(layers, Compression::gzip));
    auto listing = list_files(path);
    INFO(listing.result.err);
    REQUIRE(listing.result.exit_code == 0);
    return listing;
}

}  // namespace

TEST_CASE("a whiteout deletes a file of a lower layer", "[image][whiteout]") {
    auto view =
        view_of({{dir("etc/"), file("etc/a", "1"), file("etc/b", "2")}, {whiteout("etc/a")}});
    CHECK_FALSE(view.has("/etc/a"));
    CHECK(view.has("/etc/b"));
    CHECK_FALSE(view.has("/etc/.wh.a"));
}

TEST_CASE("a whiteout of a directory deletes everything below it", "[image][whiteout]") {
    auto view =
        view_of({{dir("opt/"), dir("opt/app/"), dir("opt/app/lib/"), file("opt/app/lib/x.so", "x"),
                  soft_link("opt/app/current", "lib"), file("opt/keep", "")},
                 {whiteout("opt/app")}});
    CHECK_FALSE(view.has("/opt/app"));
    CHECK_FALSE(view.has("/opt/app/lib"));
    CHECK_FALSE(view.has("/opt/app/lib/x.so"));
    CHECK_FALSE(view.has("/opt/app/current"));
    CHECK(view.has("/opt/keep"));
    CHECK(view.files.size() == 2);
}

TEST_CASE("a whiteout only hides lower layers, never its own", "[image][whiteout]") {
    // The spec applies whiteouts to lower layers only. The overlay runtimes agree when the
    // whiteout comes first, and cannot make it after a file of that name ("file exists").
    auto before = view_of({{file("f", "low")}, {whiteout("f"), file("f", "same layer")}});
    CHECK(before.at("/f").size == 10);
    CHECK(before.at("/f").layer == 1);
}

TEST_CASE("an opaque directory hides lower children but keeps its own layer's",
          "[image][whiteout]") {
    auto view =
        view_of({{dir("var/"), dir("var/lib/"), dir("var/lib/apt/"), file("var/lib/apt/old1", ""),
                  dir("var/lib/apt/sub/"), file("var/lib/apt/sub/old2", ""), file("var/other", "")},
                 {dir("var/lib/apt/"), file("var/lib/apt/new-before", ""), opaque("var/lib/apt"),
                  file("var/lib/apt/new-after", "")}});
    CHECK(view.at("/var/lib/apt").type == "dir");
    CHECK_FALSE(view.has("/var/lib/apt/old1"));
    CHECK_FALSE(view.has("/var/lib/apt/sub"));
    CHECK_FALSE(view.has("/var/lib/apt/sub/old2"));
    CHECK(view.has("/var/lib/apt/new-before"));
    CHECK(view.has("/var/lib/apt/new-after"));
    CHECK(view.has("/var/other"));
    CHECK_FALSE(view.has("/var/lib/apt/.wh..wh..opq"));
}

TEST_CASE("an opaque directory with no lower directory is just a directory", "[image][whiteout]") {
    auto view = view_of({{file("x", "")}, {dir("fresh/"), opaque("fresh"), file("fresh/f", "1")}});
    CHECK(view.at("/fresh").type == "dir");
    CHECK(view.has("/fresh/f"));
    CHECK(view.files.size() == 3);
}

TEST_CASE("a whiteout of something that never existed is harmless", "[image][whiteout]") {
    auto view = view_of({{file("a", "1")}, {whiteout("nothing"), whiteout("no/such/dir/file")}});
    CHECK(view.has("/a"));
    CHECK_FALSE(view.has("/nothing"));
}

TEST_CASE("a deleted file can come back in a later layer", "[image][whiteout]") {
    auto view = view_of({{file("f", "one")}, {whiteout("f")}, {file("f", "three")}});
    CHECK(view.at("/f").size == 5);
    CHECK(view.at("/f").layer == 2);
}

TEST_CASE("a file replaces a directory and a directory replaces a file", "[image][whiteout]") {
    auto view = view_of({{dir("d/"), file("d/child", "c"), file("f", "plain")},
                         {file("d", "now a file"), dir("f/"), file("f/inside", "i")}});
    CHECK(view.at("/d").type == "file");
    CHECK_FALSE(view.has("/d/child"));
    CHECK(view.at("/f").type == "dir");
    CHECK(view.has("/f/inside"));
}

TEST_CASE("entries without directory entries get their parents", "[image][whiteout]") {
    auto view = view_of({{file("usr/local/lib/libz.so", "z")}});
    CHECK(view.at("/usr").type == "dir");
    CHECK(view.at("/usr/local/lib").type == "dir");
    CHECK(view.at("/usr/local/lib/libz.so").type == "file");
}

TEST_CASE("names with ./ prefixes and long pax names are normalised", "[image][whiteout]") {
    std::string deep = "opt/" + std::string(120, 'd') + "/" + std::string(90, 'f') + ".so";
    auto view = view_of(
        {{dir("./"), file("./etc/conf", "c"), file(deep, "long")}, {whiteout("./etc/conf")}});
    CHECK_FALSE(view.has("/etc/conf"));
    CHECK(view.at("/" + deep).size == 4);
}

TEST_CASE("a whiteout after a file of its own layer is refused, as overlay refuses it",
          "[image][whiteout]") {
    TempDir tmp;
    auto path =
        write_docker(tmp, layered_spec({{file("f", "low")}, {file("f", "x"), whiteout("f")}}));
    auto listing = list_files(path);
    CHECK(listing.result.exit_code == 3);
    CHECK(listing.result.err.find("\"file exists\"") != std::string::npos);
}
