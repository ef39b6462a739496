// CUV021: what the runtime cannot execve is an error, not "nothing it runs breaks" (issue 33).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "support/cuda_image.hpp"

using namespace cuvet::test;

namespace {

// A gcc-built program, as bytes to place in layers.
const std::string& program_bytes() {
    static const std::string bytes = [] {
        Rootfs fs;
        fs.exe("/app", {});
        REQUIRE(fs.error().empty());
        std::ifstream in(fs.host("/app"), std::ios::binary);
        std::ostringstream out;
        out << in.rdbuf();
        return out.str();
    }();
    return bytes;
}

struct Case {
    std::vector<std::vector<TarEntry>> layers;
    std::vector<std::string> entrypoint, cmd;
    std::string user;
};

std::vector<cuvet::report::Finding> cuv021(const Case& c) {
    ImageSpec spec;
    for (const auto& entries : c.layers) {
        Layer layer;
        layer.entries = entries;
        spec.layers.push_back(layer);
    }
    spec.env = {"PATH=/usr/local/bin:/usr/bin:/bin"};
    spec.entrypoint = c.entrypoint;
    spec.cmd = c.cmd;
    spec.user = c.user;
    TempDir tmp;
    auto path = tmp / "image.tar";
    docker_archive({spec}).write_tar(path);
    std::vector<cuvet::report::Finding> out;
    for (auto& f : validate_findings(path))
        if (f.id == "CUV021") out.push_back(std::move(f));
    return out;
}

std::vector<TarEntry> base(std::uint32_t app_mode = 0755) {
    return {dir("usr/"),
            dir("usr/bin/"),
            file("usr/bin/app", program_bytes(), app_mode),
            dir("etc/"),
            file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\nsvc:x:1000:1000::/home/svc:\n"),
            file("etc/group", "root:x:0:\nsvc:x:1000:\nvideo:x:44:svc\n")};
}

}  // namespace

TEST_CASE("CUV021: an ENTRYPOINT the merged file system lacks", "[validate][cuv021]") {
    CHECK(cuv021({{base()}, {"/usr/bin/app"}, {}, ""}).empty());
    auto missing = cuv021({{base()}, {"/usr/bin/nope"}, {}, ""});
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].severity == cuvet::report::Severity::error);
    CHECK_THAT(missing[0].message, Catch::Contains("/usr/bin/nope is not in the image"));
    CHECK(cuv021({{}, {"/usr/bin/app"}, {}, ""}).size() == 1);  // zero layers
    // A whiteout (even one stored as a directory) removes it, as overlay does.
    CHECK(cuv021({{base(), {dir("usr/"), dir("usr/bin/"), whiteout("usr/bin/app")}},
                  {"/usr/bin/app"},
                  {},
                  ""})
              .size() == 1);
    CHECK(cuv021({{base(), {dir("usr/"), dir("usr/bin/"), dir("usr/bin/.wh.app/")}},
                  {"/usr/bin/app"},
                  {},
                  ""})
              .size() == 1);
    // A directory where the program should be.
    auto directory = cuv021({{base(), {dir("opt/"), dir("opt/app/")}}, {"/opt/app"}, {}, ""});
    REQUIRE(directory.size() == 1);
    CHECK_THAT(directory[0].message, Catch::Contains("is a directory"));
    // No program named: one comes with `docker run`.
    CHECK(cuv021({{base()}, {}, {}, ""}).empty());
}

TEST_CASE("CUV021: CMD found on PATH as exec.LookPath finds it", "[validate][cuv021]") {
    CHECK(cuv021({{base()}, {}, {"app", "--serve"}, ""}).empty());
    auto absent = cuv021({{base()}, {}, {"server"}, ""});
    REQUIRE(absent.size() == 1);
    CHECK_THAT(absent[0].message, Catch::Contains("CMD server cannot start"));
    CHECK_THAT(absent[0].message, Catch::Contains("in no directory of PATH"));
    // LookPath skips a file with no x bit; nothing else on PATH has it.
    CHECK(cuv021({{base(0644)}, {}, {"app"}, ""}).size() == 1);
}

TEST_CASE("CUV021: not executable for the image's USER", "[validate][cuv021]") {
    auto with_mode = [](std::uint32_t mode) {
        auto layers = base();
        layers[2] = file("usr/bin/app", program_bytes(), mode);
        return layers;
    };
    // Root executes anything with an x bit, and nothing without one.
    CHECK(cuv021({{with_mode(0700)}, {"/usr/bin/app"}, {}, ""}).empty());
    auto denied = cuv021({{with_mode(0644)}, {"/usr/bin/app"}, {}, ""});
    REQUIRE(denied.size() == 1);
    CHECK_THAT(denied[0].message,
               Catch::Contains("not executable for root (owner 0:0, mode 0644)"));
    CHECK(cuv021({{with_mode(0644)}, {"/usr/bin/app"}, {}, "svc"}).size() == 1);
    CHECK(cuv021({{with_mode(0755)}, {"/usr/bin/app"}, {}, "svc:video"}).empty());
    CHECK(cuv021({{with_mode(0755)}, {"/usr/bin/app"}, {}, "1000:1000"}).empty());
    // The owner's bits by the tar header's uid: 0700 is the owner's program alone.
    auto root_only = cuv021({{with_mode(0700)}, {"/usr/bin/app"}, {}, "svc"});
    REQUIRE(root_only.size() == 1);
    CHECK_THAT(root_only[0].message, Catch::Contains("(owner 0:0, mode 0700)"));
    auto svc_owned = with_mode(0700);
    svc_owned[2].uid = 1000;
    CHECK(cuv021({{svc_owned}, {"/usr/bin/app"}, {}, "svc"}).empty());
    // A directory on the way that no one but root may search.
    auto hidden = base();
    hidden[1] = dir("usr/bin/", 0600);
    CHECK(cuv021({{hidden}, {"/usr/bin/app"}, {}, ""}).empty());
    CHECK(cuv021({{hidden}, {"/usr/bin/app"}, {}, "svc"}).size() == 1);
    // A USER or group the image does not know: the runtime refuses to start.
    auto unknown = cuv021({{base()}, {"/usr/bin/app"}, {}, "nobody"});
    REQUIRE(unknown.size() == 1);
    CHECK_THAT(unknown[0].message, Catch::Contains("no \"nobody\" in the image's /etc/passwd"));
    CHECK(cuv021({{base()}, {"/usr/bin/app"}, {}, "svc:wheel"}).size() == 1);
    // A numeric uid needs no passwd entry.
    CHECK(cuv021({{base()}, {"/usr/bin/app"}, {}, "4242"}).empty());
}

TEST_CASE("CUV021: a script whose interpreter is missing", "[validate][cuv021]") {
    auto layers = base();
    layers.push_back(file("usr/bin/run.sh", "#!/bin/bash\nexec /usr/bin/app\n", 0755));
    auto found = cuv021({{layers}, {"/usr/bin/run.sh"}, {}, ""});
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Catch::Contains("\"#!/bin/bash\", and /bin/bash is not in"));
    layers.push_back(dir("bin/"));
    layers.push_back(file("bin/bash", program_bytes(), 0755));
    CHECK(cuv021({{layers}, {"/usr/bin/run.sh"}, {}, ""}).empty());
}
