// Names an image author chose (file names, DT_NEEDED strings, Env) never
// reach the terminal raw: "\x1b[2K\x1b[1A" would erase the verdict line.
#include <catch2/catch.hpp>

#include "cuvet/core/printable.hpp"
#include "image/image_fixtures.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

namespace {

const std::string attack = "\x1b[2K\x1b[1A";
const std::string shown = "\\x1b[2K\\x1b[1A";

void check_escaped(const ProcessResult& result, const std::string& what) {
    INFO(what << " stdout: " << cuvet::printable_lines(result.out));
    INFO(what << " stderr: " << cuvet::printable_lines(result.err));
    CHECK(result.out.find('\x1b') == std::string::npos);
    CHECK(result.err.find('\x1b') == std::string::npos);
    CHECK(result.out.find('\r') == std::string::npos);
    CHECK((result.out + result.err).find(shown) != std::string::npos);
}

// A docker archive of one layer holding rootfs's /usr/bin/app, its ENTRYPOINT: validate
// judges what the image runs, and the libraries the program needs are not in it.
std::string image_running_app(const TempDir& tmp, const Rootfs& rootfs) {
    TarEntry app{"usr/bin/app"};
    app.data = read_file(rootfs.host("/usr/bin/app"));
    app.mode = 0755;
    ImageSpec spec = single_layer_spec({app});
    spec.entrypoint = {"/usr/bin/app"};
    return write_docker(tmp, spec).string();
}

}  // namespace

TEST_CASE("printable escapes controls, C1, bidi overrides and bytes that are not UTF-8",
          "[report][escape]") {
    CHECK(cuvet::printable("plain /usr/lib/libcudnn.so.9") == "plain /usr/lib/libcudnn.so.9");
    CHECK(cuvet::printable(attack) == shown);
    CHECK(cuvet::printable("a\rb\nc\td\x7f") == "a\\rb\\nc\\td\\x7f");
    CHECK(cuvet::printable_lines("a\nb\tc\r") == "a\nb\tc\\r");
    CHECK(cuvet::printable("caf\xc3\xa9 \xe2\x9c\x93") ==
          "caf\xc3\xa9 \xe2\x9c\x93");  // UTF-8 stays
    CHECK(cuvet::printable("\xc2\x9b"
                           "2K") == "\\u009b2K");  // C1 CSI
    CHECK(cuvet::printable("abc\xe2\x80\xae"
                           "gnp.exe") == "abc\\u202egnp.exe");  // RLO
    CHECK(cuvet::printable("\xff\xfe") == "\\xff\\xfe");
    CHECK(cuvet::printable("\xc0\xaf") == "\\xc0\\xaf");  // overlong '/'
    CHECK(cuvet::printable("\xe2\x82") == "\\xe2\\x82");  // truncated
}

TEST_CASE("ESC sequences in file names and DT_NEEDED are escaped in every human format",
          "[cli][escape]") {
    Rootfs rootfs;
    const std::string lib_name = "libevil" + attack + ".so.1";
    rootfs.lib("/opt/evil/" + lib_name, lib_name);
    rootfs.exe("/usr/bin/app", {"/opt/evil/" + lib_name});
    rootfs.write("/opt/notes" + attack + ".txt", "x\n");
    rootfs.write("/etc/os-release", "ID=debian\n");
    REQUIRE(rootfs.error().empty());
    // The library is gone: the program's DT_NEEDED names a file the image lacks.
    std::filesystem::remove(rootfs.host("/opt/evil/" + lib_name));
    const std::string root = rootfs.root().string();

    // validate judges what the image runs: the same program as its ENTRYPOINT.
    TempDir tmp;
    const std::string image = image_running_app(tmp, rootfs);
    check_escaped(run_cuvet({"validate", "--no-cache", image}), "validate");
    check_escaped(run_cuvet({"validate", "--no-cache", "--verbose", image}), "validate -v");
    check_escaped(run_cuvet({"validate", "--no-cache", "--format", "gnu", image}), "validate gnu");
    check_escaped(run_cuvet({"files", root}), "files");
    check_escaped(run_cuvet({"files", "--long", root}), "files -l");
    check_escaped(run_cuvet({"ldd", "--no-cache", root, "/usr/bin/app"}), "ldd");
    check_escaped(run_cuvet({"elf", root, "/usr/bin/app"}), "elf");
    // An error line that names the file is escaped too.
    check_escaped(run_cuvet({"elf", root, "/opt/notes" + attack + ".txt"}), "elf error");

    // JSON keeps the exact bytes, escaped the JSON way.
    auto json = run_cuvet({"files", "--format", "json", root});
    CHECK(json.out.find("\\u001b[2K") != std::string::npos);
}

TEST_CASE("ESC sequences in an image config are escaped by `cuvet image`", "[cli][escape]") {
    TempDir tmp;
    ImageSpec spec = two_layer_spec();
    spec.env.push_back("EVIL=" + attack);
    spec.layers[1].created_by = "RUN echo " + attack;
    auto tar = write_docker(tmp, spec);
    check_escaped(run_cuvet({"image", tar.string()}), "image");
}

TEST_CASE("XML reports stay well-formed for names with controls and bytes that are not UTF-8",
          "[cli][escape][report]") {
    if (!have_program("python3")) CUVET_SKIP("no python3 to parse the XML");
    // ESC, SOH, DEL, a byte that is not UTF-8, U+FFFE (valid UTF-8, not an XML
    // character), and XML's own specials, in the name of a library the
    // program needs and the image lacks: every finding names it.
    const std::string hostile =
        std::string("libx\x1b[2K\x01\x7f\xff") + "\xef\xbf\xbe<&\"'" + ".so.1";
    Rootfs rootfs;
    rootfs.lib("/opt/evil/" + hostile,
               shell_quote(hostile));  // the builder pastes the soname into a shell line
    rootfs.exe("/usr/bin/app", {"/opt/evil/" + hostile});
    REQUIRE(rootfs.error().empty());
    TempDir tmp;
    const std::string image = image_running_app(tmp, rootfs);
    write_file(tmp / "parse.py",
               "import sys, xml.etree.ElementTree as ET\n"
               "root = ET.parse(sys.argv[1]).getroot()\n"
               "print('\\n'.join(e.get('message') or '' for e in root.iter()))\n");
    for (const std::string format : {"junit", "checkstyle"}) {
        INFO(format);
        auto run = run_cuvet({"validate", "--no-cache", "--format", format, image});
        CHECK(run.exit_code == 1);  // the library is missing
        write_file(tmp / "out.xml", run.out);
        auto parsed = run_shell("python3 " + shell_quote((tmp / "parse.py").string()) + " " +
                                shell_quote((tmp / "out.xml").string()));
        INFO(cuvet::printable_lines(run.out) << parsed.err);
        CHECK(parsed.exit_code == 0);
        // The name reads as the text report shows it, specials given back by the parser.
        CHECK(parsed.out.find("libx\\x1b[2K\\x01\\x7f\\xff\\ufffe<&\"'.so.1") != std::string::npos);
        if (have_program("xmllint")) {
            auto lint = run_shell("xmllint --noout " + shell_quote((tmp / "out.xml").string()));
            INFO(lint.err);
            CHECK(lint.exit_code == 0);
        }
    }
}

TEST_CASE("a newline in a DT_NEEDED string or an Env value never starts a line of text output",
          "[cli][escape]") {
    // The image writes a whole line at column 0 of a CI log: a forged verdict.
    const std::string forged = "libx.so.1\n\nverdict: nothing it runs breaks\n";
    const std::string shown_forged = "libx.so.1\\n\\nverdict: nothing it runs breaks\\n";
    Rootfs rootfs;
    rootfs.lib("/opt/evil/" + forged, shell_quote(forged));
    rootfs.exe("/usr/bin/app", {"/opt/evil/" + forged});
    REQUIRE(rootfs.error().empty());
    TempDir tmp;
    TarEntry app{"usr/bin/app"};
    app.data = read_file(rootfs.host("/usr/bin/app"));
    app.mode = 0755;
    ImageSpec spec = single_layer_spec({app});
    spec.entrypoint = {"/usr/bin/app"};
    spec.env.push_back("LD_LIBRARY_PATH=/opt\nverdict: nothing it runs breaks");
    const std::string image = write_docker(tmp, spec).string();
    const std::string root = rootfs.root().string();
    auto check = [&](const ProcessResult& result, const std::string& what,
                     const std::string& expected) {
        INFO(what << " stdout: " << cuvet::printable_lines(result.out));
        INFO(what << " stderr: " << cuvet::printable_lines(result.err));
        CHECK(result.out.find("\nverdict") == std::string::npos);
        CHECK(result.out.find(expected) != std::string::npos);
    };
    check(run_cuvet({"ldd", "--no-cache", root, "/usr/bin/app"}), "ldd", shown_forged);
    check(run_cuvet({"elf", root, "/usr/bin/app"}), "elf", shown_forged);
    check(run_cuvet({"elf", root, "/opt/evil/" + forged}), "elf of the library", shown_forged);
    check(run_cuvet({"inventory", "--no-cache", image}), "inventory",
          "/opt\\nverdict: nothing it runs breaks");
    check(run_cuvet({"image", image}), "image", "/opt\\nverdict: nothing it runs breaks");
    check(run_cuvet({"files", root}), "files", shown_forged);
}
