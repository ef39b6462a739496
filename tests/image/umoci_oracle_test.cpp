// An independent oracle: images built by umoci (real whiteouts from real
// deletions between layers) and converted by skopeo; `umoci unpack` gives the
// rootfs a container would see, and cuvet's merged view must match it: the
// same paths, types, permission bits, sizes and link targets.
#include "image/image_fixtures.hpp"
#include "image/rootfs_oracle.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

void sh(const std::string& script) {
    auto result = run_shell("set -e\n" + script);
    INFO("script: " << script);
    INFO("stderr: " << result.err);
    REQUIRE(result.exit_code == 0);
}

// Three layers of real changes made in an unpacked bundle and repacked by
// umoci, which writes the whiteouts itself.
void build_umoci_image(const fs::path& dir) {
    const std::string d = shell_quote(dir.string());
    sh("cd " + d + " && umoci init --layout oci && umoci new --image oci:v1");
    sh("cd " + d +
       " && umoci unpack --image oci:v1 b1 && r=b1/rootfs\n"
       "mkdir -p $r/usr/lib/x86_64-linux-gnu $r/etc/alternatives $r/opt/app/lib "
       "$r/opt/app/share/doc $r/var/cache/apt "
       "$r/var/lib/apt/lists $r/tmp $r/empty\n"
       "chmod 1777 $r/tmp\n"
       "head -c 1500000 /dev/urandom > $r/usr/lib/x86_64-linux-gnu/libbig.so.1.0\n"
       "ln -s libbig.so.1.0 $r/usr/lib/x86_64-linux-gnu/libbig.so.1\n"
       "ln $r/usr/lib/x86_64-linux-gnu/libbig.so.1.0 $r/usr/lib/x86_64-linux-gnu/libbig-copy.so\n"
       "printf 'ID=debian\\n' > $r/etc/os-release\n"
       "ln -s /opt/app $r/etc/alternatives/app\n"
       "ln -s ../../../does/not/exist $r/etc/alternatives/dangling\n"
       "printf '#!/bin/sh\\n' > $r/opt/app/run && chmod 4755 $r/opt/app/run\n"
       "ln $r/opt/app/run $r/opt/app/run-again\n"
       "printf 'secret' > $r/opt/app/key && chmod 0600 $r/opt/app/key\n"
       "printf 'lib' > $r/opt/app/lib/libapp.so && ln -s lib $r/opt/app/lib64\n"
       "printf 'doc' > $r/opt/app/share/doc/README\n"
       "printf 'deb' > $r/var/cache/apt/pkg.deb\n"
       "printf 'list' > $r/var/lib/apt/lists/a && printf 'list' > $r/var/lib/apt/lists/b\n"
       "long=$r/opt/app/share/$(printf 'n%.0s' $(seq 1 120))/file-with-a-long-name-$(printf "
       "'x%.0s' $(seq 1 60))\n"
       "mkdir -p $(dirname $long) && printf 'long' > $long\n"
       "printf 'sp' > \"$r/opt/app/share/name with spaces\"\n"
       "printf 'f' > $r/opt/app/will-be-dir && mkdir $r/opt/app/will-be-file && printf 'c' > "
       "$r/opt/app/will-be-file/c\n"
       "umoci repack --image oci:v1 b1");
    sh("cd " + d +
       " && umoci unpack --image oci:v1 b2 && r=b2/rootfs\n"
       "rm $r/var/cache/apt/pkg.deb\n"
       "rm -rf $r/opt/app/share/doc\n"
       "rm -rf $r/var/lib/apt/lists/*\n"
       "rm $r/opt/app/will-be-dir && mkdir $r/opt/app/will-be-dir && printf 'in' > "
       "$r/opt/app/will-be-dir/in\n"
       "rm -rf $r/opt/app/will-be-file && printf 'now a file' > $r/opt/app/will-be-file\n"
       "rm -rf $r/opt/app/lib && ln -s lib64 $r/opt/app/lib-link\n"
       "printf 'ID=ubuntu\\nVERSION_ID=22.04\\n' > $r/etc/os-release\n"
       "chmod 0755 $r/opt/app/key\n"
       "rm $r/opt/app/run-again\n"
       "umoci repack --image oci:v1 b2");
    sh("cd " + d +
       " && umoci unpack --image oci:v1 b3 && r=b3/rootfs\n"
       "printf 'back' > $r/var/cache/apt/pkg.deb\n"
       "rm $r/etc/alternatives/dangling\n"
       "rm -rf $r/empty && mkdir $r/empty\n"
       "umoci repack --image oci:v1 b3");
    sh("cd " + d + " && umoci unpack --image oci:v1 oracle");
}

}  // namespace

TEST_CASE("umoci-built images match umoci's own unpacked rootfs", "[integration][image][oracle]") {
    if (!have_program("umoci")) {
        CUVET_SKIP("skipped: umoci is not installed");
    }
    TempDir tmp;
    build_umoci_image(tmp.path());
    auto oracle = walk_rootfs(tmp / "oracle/rootfs");
    REQUIRE(oracle.size() > 20);
    // The changes really happened, so the layers really hold whiteouts.
    CHECK_FALSE(oracle.count("/var/cache/apt/pkg.deb") == 0);
    CHECK(oracle.count("/opt/app/share/doc") == 0);
    CHECK(oracle.count("/etc/alternatives/dangling") == 0);
    CHECK(oracle.at("/opt/app/will-be-dir").type == "dir");
    CHECK(oracle.at("/usr/lib/x86_64-linux-gnu/libbig-copy.so").size == 1500000);

    auto from_layout = list_files(tmp / "oci");
    INFO(from_layout.result.err);
    REQUIRE(from_layout.result.exit_code == 0);
    CHECK(diff_views(oracle, comparable(from_layout)) == "");
    CHECK(from_layout.at("/var/cache/apt/pkg.deb").layer == 2);
    CHECK(from_layout.at("/opt/app/will-be-file").layer == 1);
    // umoci stores whichever name it meets first as the data, the other as a hard link.
    const std::string lib = "/usr/lib/x86_64-linux-gnu/";
    CHECK((from_layout.at(lib + "libbig-copy.so").type == "hardlink" ||
           from_layout.at(lib + "libbig.so.1.0").type == "hardlink"));

    if (!have_program("skopeo")) {
        CUVET_SKIP("skipped: skopeo is not installed");
    }
    const std::string oci = "oci:" + (tmp / "oci").string() + ":v1";
    sh("skopeo copy --quiet " + shell_quote(oci) + " " +
       shell_quote("docker-archive:" + (tmp / "docker.tar").string() + ":example/umoci:v1"));
    sh("skopeo copy --quiet " + shell_quote(oci) + " " +
       shell_quote("oci-archive:" + (tmp / "oci.tar").string() + ":v1"));
    sh("skopeo copy --quiet --dest-compress-format zstd " + shell_quote(oci) + " " +
       shell_quote("oci:" + (tmp / "oci-zstd").string() + ":v1"));
    for (const auto* name : {"docker.tar", "oci.tar", "oci-zstd"}) {
        INFO("converted by skopeo: " << name);
        auto listing = list_files(tmp / name);
        INFO(listing.result.err);
        REQUIRE(listing.result.exit_code == 0);
        CHECK(diff_views(oracle, comparable(listing)) == "");
        CHECK(diff_views(from_layout.files, listing.files) == "");
    }
    auto summary = image_summary(tmp / "docker.tar");
    REQUIRE(summary.is_object());
    // skopeo writes the fully qualified name into RepoTags.
    CHECK(summary["reference"].get<std::string>().ends_with("example/umoci:v1"));
    CHECK(summary["layers"].size() == 3);
}

TEST_CASE("skopeo accepts every image our writer makes", "[integration][image][oracle]") {
    // The writer is checked by an independent reader too, so the other tests
    // cannot pass on an image only cuvet would accept.
    if (!have_program("skopeo")) {
        CUVET_SKIP("skipped: skopeo is not installed");
    }
    TempDir tmp;
    ImageSpec spec = two_layer_spec(Compression::zstd);
    spec.repo_tags = {"example/two:1.0"};
    docker_archive({spec}, DockerLayout::legacy).write_tar(tmp / "legacy.tar");
    docker_archive({spec}, DockerLayout::blobs).write_tar(tmp / "blobs.tar");
    oci_layout({oci_image(spec, "1.0")}).write_dir(tmp / "oci");
    oci_layout({oci_image(spec, "1.0")}).write_tar(tmp / "oci.tar");
    const std::vector<std::string> refs = {"docker-archive:" + (tmp / "legacy.tar").string(),
                                           "docker-archive:" + (tmp / "blobs.tar").string(),
                                           "oci:" + (tmp / "oci").string() + ":1.0",
                                           "oci-archive:" + (tmp / "oci.tar").string() + ":1.0"};
    for (const auto& ref : refs) {
        // Copying reads every blob and checks every digest.
        auto result = run_shell("skopeo copy --quiet " + shell_quote(ref) + " " +
                                shell_quote("oci:" + (tmp / "copy").string() + ":x"));
        INFO(ref << ": " << result.err);
        CHECK(result.exit_code == 0);
        auto inspect = run_shell("skopeo inspect --config " + shell_quote(ref));
        REQUIRE(inspect.exit_code == 0);
        auto config = nlohmann::json::parse(inspect.out);
        CHECK(config["rootfs"]["diff_ids"].size() == 2);
        CHECK(config["config"]["Env"] == nlohmann::json(spec.env));
    }
}
