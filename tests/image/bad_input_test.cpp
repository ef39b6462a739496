// Every kind of broken image from issue 2 ends in one clear error line that
// names the file, exit code 3, no crash, no hang, nothing written outside.
// Layer-level damage is made with consistent digests (Layer::raw_blob), so it
// is the damage itself the reader must notice, not a digest mismatch.
#include <cstring>

#include "image/image_fixtures.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// Runs `cuvet files` from inside a scratch directory, bounded in time, and
// checks that nothing appeared anywhere under the temp dir (nothing extracted,
// nothing written through "../").
ProcessResult files_of(const TempDir& tmp, const fs::path& image,
                       const std::vector<std::string>& extra = {}) {
    auto work = tmp / "cwd/a/b";
    fs::create_directories(work);
    std::size_t before = 0, after = 0;
    for (auto it = fs::recursive_directory_iterator(tmp.path());
         it != fs::recursive_directory_iterator(); ++it)
        ++before;
    std::string command = "cd " + shell_quote(work.string()) + " && timeout 120 " +
                          shell_quote(CUVET_BINARY_PATH) + " files";
    for (const auto& arg : extra) command += " " + shell_quote(arg);
    command += " " + shell_quote(image.string());
    auto result = run_shell(command);
    for (auto it = fs::recursive_directory_iterator(tmp.path());
         it != fs::recursive_directory_iterator(); ++it)
        ++after;
    CHECK(before == after);
    CHECK(result.exit_code != 124);  // timeout(1): it hung
    return result;
}

ImageSpec with_raw_layer(std::string blob, std::string media_type = "") {
    ImageSpec spec = two_layer_spec(Compression::gzip);
    Layer bad;
    bad.raw_blob = std::move(blob);
    bad.media_type = media_type;
    bad.created_by = "RUN make-it-bad";
    spec.layers.push_back(bad);
    return spec;
}

// The bad layer in every container format; each must fail naming that blob.
void require_bad_layer(const ImageSpec& spec, const std::string& context) {
    TempDir tmp;
    INFO(context);
    {
        ImageFiles files = docker_archive({spec}, DockerLayout::legacy);
        files.write_tar(tmp / "legacy.tar");
        require_bad_input(files_of(tmp, tmp / "legacy.tar"), files.images[0].layers.back());
    }
    {
        ImageFiles files = oci_layout({oci_image(spec)});
        files.write_dir(tmp / "oci");
        const std::string blob = files.images[0].layers.back();
        require_bad_input(files_of(tmp, tmp / "oci"), blob.substr(13, 12));
        require_bad_input(files_of(tmp, tmp / "oci", {"--no-verify"}), blob.substr(13, 12));
    }
}

std::string tar_of(std::vector<TarEntry> entries) { return make_tar(entries); }

}  // namespace

TEST_CASE("bad input: truncated gzip layer", "[image][bad-input]") {
    std::string gz =
        compress(tar_of({file("big", pseudo_random_bytes(100000, 5))}), Compression::gzip);
    require_bad_layer(with_raw_layer(gz.substr(0, gz.size() / 2)), "cut in the middle");
    require_bad_layer(with_raw_layer(gz.substr(0, gz.size() - 4)), "no trailer (CRC/ISIZE)");
    require_bad_layer(with_raw_layer(gz.substr(0, 10)), "header only");
}

TEST_CASE("bad input: truncated zstd layer", "[image][bad-input]") {
    std::string zst =
        compress(tar_of({file("big", pseudo_random_bytes(100000, 6))}), Compression::zstd);
    require_bad_layer(with_raw_layer(zst.substr(0, zst.size() / 2)), "cut in the middle");
    require_bad_layer(with_raw_layer(zst.substr(0, 6)), "frame header only");
}

TEST_CASE("bad input: corrupt gzip data with a valid header", "[image][bad-input]") {
    std::string gz =
        compress(tar_of({file("big", pseudo_random_bytes(100000, 8))}), Compression::gzip);
    for (std::size_t i = gz.size() / 3; i < gz.size() / 3 + 16; ++i)
        gz[i] = static_cast<char>(~gz[i]);
    require_bad_layer(with_raw_layer(gz), "flipped deflate bytes");
}

TEST_CASE("bad input: corrupt tar header checksum", "[image][bad-input]") {
    std::string tar = tar_of({file("a", "aaaa"), file("b", "bbbb")});
    tar[512 * 2 + 5] ^= 0x20;  // a name byte of the second header: checksum mismatch
    require_bad_layer(with_raw_layer(tar), "checksum mismatch");
}

TEST_CASE("bad input: corrupt tar header size field", "[image][bad-input]") {
    std::string tar = tar_of({file("a", "aaaa"), file("b", "bbbb")});
    std::string bad_size = tar;
    std::memcpy(&bad_size[124], "9x9x9x9x9x9", 11);  // not octal
    require_bad_layer(with_raw_layer(bad_size), "size field not octal");
}

TEST_CASE("bad input: a layer that is not a tar", "[image][bad-input]") {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "this is a README, not a layer\n";
    require_bad_layer(with_raw_layer(text), "text");
    require_bad_layer(with_raw_layer(pseudo_random_bytes(4096, 11)), "random bytes");
    require_bad_layer(with_raw_layer(compress(text, Compression::gzip)), "gzip of text");
    require_bad_layer(with_raw_layer(compress(text, Compression::zstd)), "zstd of text");
}

TEST_CASE("bad input: absurd sizes", "[image][bad-input]") {
    TarEntry huge = file("huge", "only a few bytes");
    huge.declared_size = 1ULL << 50;  // a pax size record: a petabyte
    require_bad_layer(with_raw_layer(tar_of({huge})), "petabyte file in a small layer");
    TarEntry big = file("big", "x");
    big.declared_size = 077777777777ULL;  // the largest ustar octal size
    require_bad_layer(with_raw_layer(compress(tar_of({big}), Compression::gzip)),
                      "8 GiB in a gzip layer");
}

TEST_CASE("bad input: absurd blob size in a manifest", "[image][bad-input]") {
    TempDir tmp;
    ImageFiles files = oci_layout({oci_image(two_layer_spec())});
    const std::string layer = files.images[0].layers[0];
    files.edit_json(files.images[0].manifest,
                    [](nlohmann::json& manifest) { manifest["layers"][0]["size"] = 1ULL << 62; });
    files.write_dir(tmp / "oci");
    // The manifest's own digest no longer matches either; either error is fine.
    auto result = files_of(tmp, tmp / "oci", {"--no-verify"});
    require_bad_input(result, "sha256");
}

TEST_CASE("bad input: path traversal and absolute names in a layer", "[image][bad-input]") {
    require_bad_layer(with_raw_layer(tar_of({file("../../etc/passwd", "root::0:0")})),
                      "../../etc/passwd");
    require_bad_layer(with_raw_layer(tar_of({dir("usr/"), file("usr/../../../x", "x")})),
                      "climbs out through usr/");
    require_bad_layer(with_raw_layer(tar_of({file("/etc/shadow", "root:!")})), "absolute name");
    require_bad_layer(
        with_raw_layer(tar_of({file("ok", ""), hard_link("h", "../../../etc/passwd")})),
        "hard link out of the root");
}

TEST_CASE("bad input: entries below a symlink loop", "[image][bad-input]") {
    require_bad_layer(
        with_raw_layer(tar_of({soft_link("a", "b"), soft_link("b", "a"), file("a/x", "x")})),
        "a -> b -> a, then a/x");
}

TEST_CASE("bad input: the image file itself", "[image][bad-input]") {
    TempDir tmp;
    SECTION("empty file") {
        write_file(tmp / "empty.tar", "");
        require_bad_input(files_of(tmp, tmp / "empty.tar"), "empty.tar");
    }
    SECTION("not a tar") {
        write_file(tmp / "junk.tar", pseudo_random_bytes(10000, 12));
        require_bad_input(files_of(tmp, tmp / "junk.tar"), "junk.tar");
    }
    SECTION("a tar that is no image") {
        write_file(tmp / "plain.tar", tar_of({file("hello.txt", "hi")}));
        require_bad_input(files_of(tmp, tmp / "plain.tar"), "plain.tar");
    }
    SECTION("truncated archive") {
        ImageFiles files = docker_archive({two_layer_spec()});
        files.write_tar(tmp / "full.tar");
        std::string bytes = read_file(tmp / "full.tar");
        write_file(tmp / "cut.tar", bytes.substr(0, bytes.size() * 2 / 3));
        require_bad_input(files_of(tmp, tmp / "cut.tar"), "cut.tar");
    }
    SECTION("missing path") {
        require_bad_input(files_of(tmp, tmp / "no-such-image.tar"), "no-such-image.tar");
    }
}

TEST_CASE("bad input: missing blobs", "[image][bad-input]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec();
    SECTION("OCI layer") {
        ImageFiles files = oci_layout({oci_image(spec)});
        std::string layer = files.images[0].layers[1];
        files.remove(layer);
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), layer.substr(13, 12));
    }
    SECTION("OCI config") {
        ImageFiles files = oci_layout({oci_image(spec)});
        std::string config = files.images[0].config;
        files.remove(config);
        files.write_tar(tmp / "oci.tar");
        require_bad_input(files_of(tmp, tmp / "oci.tar"), config.substr(13, 12));
    }
    SECTION("OCI manifest") {
        ImageFiles files = oci_layout({oci_image(spec)});
        std::string manifest = files.images[0].manifest;
        files.remove(manifest);
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), manifest.substr(13, 12));
    }
    SECTION("docker legacy layer.tar") {
        ImageFiles files = docker_archive({spec}, DockerLayout::legacy);
        std::string layer = files.images[0].layers[0];
        files.remove(layer);
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), layer);
    }
    SECTION("docker manifest.json names a config that is not there") {
        ImageFiles files = docker_archive({spec}, DockerLayout::legacy);
        files.edit_json("manifest.json", [](nlohmann::json& m) { m[0]["Config"] = "nope.json"; });
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "nope.json");
    }
}

TEST_CASE("bad input: a directory where a file is expected", "[image][bad-input]") {
    TempDir tmp;
    ImageFiles files = oci_layout({oci_image(two_layer_spec())});
    SECTION("layer blob") {
        std::string layer = files.images[0].layers[0];
        files.replace_with_directory(layer);
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), layer.substr(13, 12));
        files.write_tar(tmp / "oci.tar");
        require_bad_input(files_of(tmp, tmp / "oci.tar"), layer.substr(13, 12));
    }
    SECTION("index.json") {
        files.replace_with_directory("index.json");
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), "index.json");
    }
    SECTION("docker manifest.json") {
        ImageFiles docker = docker_archive({two_layer_spec()}, DockerLayout::legacy);
        docker.replace_with_directory("manifest.json");
        docker.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "manifest.json");
    }
}

TEST_CASE("bad input: a manifest pointing outside the layout", "[image][bad-input]") {
    TempDir tmp;
    // A real file outside the layout that a careless reader would happily read.
    ImageFiles outside = docker_archive({two_layer_spec()}, DockerLayout::legacy);
    write_file(tmp / "x", outside.files.at(outside.images[0].layers[0]));
    SECTION("docker Layers entry with ../") {
        ImageFiles files = docker_archive({two_layer_spec()}, DockerLayout::legacy);
        files.edit_json("manifest.json", [](nlohmann::json& m) { m[0]["Layers"][0] = "../x"; });
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "../x");
    }
    SECTION("docker Config absolute") {
        ImageFiles files = docker_archive({two_layer_spec()}, DockerLayout::blobs);
        files.edit_json("manifest.json", [](nlohmann::json& m) { m[0]["Config"] = "/etc/passwd"; });
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "/etc/passwd");
    }
    SECTION("OCI digest with a path in it") {
        ImageFiles files = oci_layout({oci_image(two_layer_spec())});
        files.edit_json(files.images[0].manifest,
                        [](nlohmann::json& m) { m["layers"][0]["digest"] = "sha256:../../../x"; });
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci", {"--no-verify"}), "../../../x");
    }
    SECTION("OCI unknown digest algorithm") {
        ImageFiles files = oci_layout({oci_image(two_layer_spec())});
        files.edit_json("index.json", [](nlohmann::json& index) {
            index["manifests"][0]["digest"] = "md5:d41d8cd98f00b204e9800998ecf8427e";
        });
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), "md5");
    }
}

TEST_CASE("bad input: malformed JSON", "[image][bad-input]") {
    TempDir tmp;
    SECTION("docker manifest.json") {
        ImageFiles files = docker_archive({two_layer_spec()}, DockerLayout::legacy);
        files.files["manifest.json"] = "[{\"Config\": ";
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "manifest.json");
    }
    SECTION("docker manifest.json of the wrong shape") {
        ImageFiles files = docker_archive({two_layer_spec()}, DockerLayout::legacy);
        files.files["manifest.json"] = "{\"Config\": 42, \"Layers\": \"no\"}";
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), "manifest.json");
    }
    SECTION("OCI index.json") {
        ImageFiles files = oci_layout({oci_image(two_layer_spec())});
        files.files["index.json"] = "{\"manifests\": [null, 7]}";
        files.write_dir(tmp / "oci");
        require_bad_input(files_of(tmp, tmp / "oci"), "index.json");
    }
    SECTION("config that is not JSON, with a matching digest") {
        ImageFiles files = docker_archive({two_layer_spec()}, DockerLayout::legacy);
        std::string config = files.images[0].config;
        files.files[config] = "not json at all";
        files.write_tar(tmp / "image.tar");
        require_bad_input(files_of(tmp, tmp / "image.tar"), config);
    }
}

TEST_CASE("bad input: random damage to a layer never crashes or hangs", "[image][bad-input]") {
    // Digests are kept consistent with the damage, so the layer bytes reach
    // the decompressor and the tar reader; each run must end in 0 or 3.
    const std::string tar =
        tar_of({dir("usr/"), file("usr/a", pseudo_random_bytes(3000, 21)), soft_link("usr/l", "a"),
                hard_link("usr/h", "usr/a"), whiteout("usr/gone"), file("usr/b", "bbbbbbbb")});
    TempDir tmp;
    std::uint32_t state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (auto compression : {Compression::none, Compression::gzip, Compression::zstd}) {
        const std::string clean = compress(tar, compression);
        for (int round = 0; round < 12; ++round) {
            std::string damaged = clean;
            for (int flips = 1 + next() % 4; flips > 0; --flips)
                damaged[next() % damaged.size()] = static_cast<char>(next() & 0xff);
            if (round % 4 == 3) damaged.resize(next() % damaged.size());
            auto path = tmp / ("damaged-" + std::to_string(round) + ".tar");
            docker_archive({with_raw_layer(damaged)}, DockerLayout::legacy).write_tar(path);
            auto result = run_shell("timeout 60 " + shell_quote(CUVET_BINARY_PATH) + " files " +
                                    shell_quote(path.string()));
            INFO("compression " << to_string(compression) << ", round " << round << ": "
                                << result.err);
            CHECK((result.exit_code == 0 || result.exit_code == 3));
            if (result.exit_code == 3) CHECK(lines_of(result.err).size() == 1);
        }
    }
}
