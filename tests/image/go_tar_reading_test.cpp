// Tar bytes that Go's archive/tar (docker, containerd, podman, skopeo) reads differently from
// libarchive or a naive index: cuvet must read what the runtime reads, or refuse. The
// headers here are written byte by byte, as the red team's reproducers write them; podman's
// own reading of such layers is checked in podman_overlay_differential_test.cpp.
#include <cstdio>
#include <functional>

#include "image/image_fixtures.hpp"
#include "image/storage/go_clean_path.hpp"
#include "image/tar_blocks.hpp"

using namespace cuvet::test;

namespace {

// One header block; `edit` changes bytes before the checksum is written.
std::string header(const std::string& name, std::size_t size, char type,
                   std::string_view magic = ustar_magic, const std::string& link = "",
                   const std::function<void(std::string&)>& edit = {}) {
    std::string block = unsealed_header(name, link, size, type, 0755, magic);
    if (edit) edit(block);
    seal_header(block);
    return block;
}

std::string member(const std::string& name, const std::string& data, char type = '0',
                   std::string_view magic = ustar_magic,
                   const std::function<void(std::string&)>& edit = {}) {
    return header(name, data.size(), type, magic, "", edit) + padded(data);
}

std::string pax(const std::string& key, const std::string& value) {
    const std::string body = pax_record(key, value);
    return header("PaxHeaders/x", body.size(), 'x') + padded(body);
}

const std::string end_of_archive(1024, '\0');

// GNU atime and ctime as octal numbers: Go reads no prefix from them.
void octal_times(std::string& block) {
    block.replace(345, 12, std::string("00000000000\0", 12));
    block.replace(357, 12, std::string("00000000000\0", 12));
}

// An image whose second layer is `layer_tar`, as written.
ProcessResult list_with_layer(const TempDir& tmp, const std::string& layer_tar) {
    ImageSpec spec = two_layer_spec(Compression::gzip);
    Layer raw;
    raw.raw_blob = layer_tar;  // uncompressed: the blob is its own diff_id
    raw.created_by = "RUN crafted";
    spec.layers.push_back(raw);
    auto path = write_docker(tmp, spec);
    return run_cuvet({"files", "--format", "json", path.string()});
}

// The docker archive of two_layer_spec with every member written by `write_member`.
std::filesystem::path outer_tar(
    const TempDir& tmp,
    const std::function<std::string(const std::string&, const std::string&)>& write_member) {
    ImageFiles files = docker_archive({two_layer_spec()});
    std::string tar;
    for (const auto& [name, bytes] : files.files) tar += write_member(name, bytes);
    tar += end_of_archive;
    auto path = tmp / "outer.tar";
    write_file(path, tar);
    return path;
}

void require_refused(const ProcessResult& result, const std::string& why) {
    INFO("stdout: " << result.out);
    INFO("stderr: " << result.err);
    CHECK(result.exit_code == 3);
    CHECK(lines_of(result.err).size() == 1);
    CHECK(result.err.find(why) != std::string::npos);
}

}  // namespace

TEST_CASE("layer: a GNU header's text atime is a path prefix to Go: refused", "[image][go-tar]") {
    TempDir tmp;
    auto decoy = [](std::string& block) { block.replace(345, 5, "decoy"); };
    require_refused(list_with_layer(tmp, member("usr/lib/libx.so", "abc", '0', gnu_magic, decoy) +
                                             end_of_archive),
                    "Go's archive/tar names an entry 'decoy/usr/lib/libx.so', libarchive "
                    "'usr/lib/libx.so'");
    // Octal times are times: the same name to both readers.
    auto fine = list_with_layer(
        tmp, member("usr/lib/libx.so", "abc", '0', gnu_magic, octal_times) + end_of_archive);
    INFO(fine.err);
    CHECK(fine.exit_code == 0);
    CHECK(fine.out.find("/usr/lib/libx.so") != std::string::npos);
}

TEST_CASE("layer: what the runtimes do not extract is refused", "[image][go-tar]") {
    TempDir tmp;
    SECTION("typeflag 7 (contiguous file)") {
        require_refused(
            list_with_layer(tmp, member("usr/lib/libx.so", "abc", '7') + end_of_archive),
            "tar type '7'");
    }
    SECTION("a NUL inside a pax path") {
        require_refused(list_with_layer(tmp, pax("path", std::string("usr/lib/libx.so\0.x", 18)) +
                                                 member("x", "abc") + end_of_archive),
                        "a pax record with a NUL");
    }
    SECTION("a user.* extended attribute on a symbolic link") {
        require_refused(
            list_with_layer(tmp, pax("SCHILY.xattr.user.k", "v") +
                                     header("usr/lib/libx.so", 0, '2', ustar_magic, "libx.so.1") +
                                     end_of_archive),
            "a user.* extended attribute on the symbolic link 'usr/lib/libx.so'");
    }
    SECTION("a header after one zero block") {
        require_refused(list_with_layer(tmp, member("a", "1") + std::string(512, '\0') +
                                                 member("b", "2") + end_of_archive),
                        "a header after an end-of-archive block");
    }
    SECTION("a hard link to a later entry of the layer") {
        require_refused(
            list_with_layer(tmp,
                            header("usr/lib/libx.so", 0, '1', ustar_magic, "usr/lib/libx.so.1") +
                                member("usr/lib/libx.so.1", "abc") + end_of_archive),
            "no such file or directory");
    }
    SECTION("a hard link whose size field hides a header from Go") {
        // Go gives a hard link no data, so the block after it is a header to Go.
        // libarchive gives a pax-format hard link the data its size field claims.
        std::string hidden = member("usr/lib/hidden.so", "");
        require_refused(
            list_with_layer(tmp, member("a", "1") + pax("path", "usr/lib/link") +
                                     header("usr/lib/link", hidden.size(), '1', ustar_magic, "a") +
                                     hidden + end_of_archive),
            "read layers with Go's archive/tar");
    }
}

TEST_CASE("layer: a name twice in one layer is refused, as docker and podman refuse it",
          "[image][go-tar]") {
    // Found by the parity harness (tests/parity): tar-split, which docker and podman store
    // layers with, compares names after filepath.Clean and fails the load on a repeat.
    TempDir tmp;
    require_refused(
        list_with_layer(tmp, member("usr/lib/libx.so", "abc") +
                                 member("./usr//lib/libx.so", "other") + end_of_archive),
        "'./usr//lib/libx.so' is in the layer twice");
    require_refused(
        list_with_layer(tmp, header("opt/data/", 0, '5') +
                                 header("opt/data", 0, '2', ustar_magic, "/usr") + end_of_archive),
        "'opt/data' is in the layer twice");
    // A directory of a lower layer written again is no repeat: each layer is its own tar.
    auto fine = list_with_layer(tmp, header("etc/", 0, '5') + member("etc/x", "x") +
                                         header("opt/", 0, '5') + end_of_archive);
    INFO(fine.err);
    CHECK(fine.exit_code == 0);
}

TEST_CASE("go tar: names are compared as Go's filepath.Clean spells them", "[image][go-tar]") {
    using cuvet::image::go_tar::clean_path;
    CHECK(clean_path("") == ".");
    CHECK(clean_path("./") == ".");
    CHECK(clean_path("a//b/./c/") == "a/b/c");
    CHECK(clean_path("a/../../b") == "../b");
    CHECK(clean_path("/../a/..") == "/");
    CHECK(clean_path("/opt/x") != clean_path("opt/x"));
}

TEST_CASE("docker archive: GNU headers with octal times name their members plainly",
          "[image][go-tar]") {
    TempDir tmp;
    auto path = outer_tar(tmp, [](const std::string& name, const std::string& bytes) {
        return member(name, bytes, '0', gnu_magic, octal_times);
    });
    auto result = run_cuvet({"files", "--format", "json", path.string()});
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("/opt/app.py") != std::string::npos);
}

TEST_CASE("docker archive: a GNU long name wins over a pax path, as in Go", "[image][go-tar]") {
    TempDir tmp;
    auto path = outer_tar(tmp, [](const std::string& name, const std::string& bytes) {
        const std::string long_name = name + '\0';
        return header("././@LongLink", long_name.size(), 'L') + padded(long_name) +
               pax("path", "decoy/" + name) + member("x", bytes);
    });
    auto result = run_cuvet({"files", "--format", "json", path.string()});
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("/opt/app.py") != std::string::npos);
}

TEST_CASE("docker archive: a manifest.json written twice is refused", "[image][go-tar]") {
    TempDir tmp;
    auto path = outer_tar(tmp, [](const std::string& name, const std::string& bytes) {
        std::string out = member(name, bytes);
        if (name == "manifest.json") out += member(name, "[]");
        return out;
    });
    require_refused(run_cuvet({"files", "--format", "json", path.string()}),
                    "the archive holds it more than once");
}
