// `cuvet inventory` end to end: text and the documented JSON schema.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/process.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

TEST_CASE("cuvet inventory: text and JSON", "[inventory][cli]") {
    using namespace cuvet;
    if (!test::have_program("gcc")) {
        CUVET_SKIP("skipped: no gcc");
    }
    test::Rootfs root;
    root.lib("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.19.0", "libcudnn.so.9");
    root.lib("/opt/conda/lib/libcudnn.so.9.1.0", "libcudnn.so.9");
    root.write("/opt/conda/conda-meta/cudnn-9.1.0.70-h1_0.json",
               R"({"name":"cudnn","version":"9.1.0.70"})");
    root.write("/etc/os-release",
               "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n");
    REQUIRE(root.error().empty());

    auto text = test::run_cuvet({"inventory", root.root().string()});
    INFO(text.out << text.err);
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("distro: Ubuntu 24.04.1 LTS") != std::string::npos);
    CHECK(text.out.find("9.19.0") != std::string::npos);

    auto run = test::run_cuvet({"inventory", root.root().string(), "--format", "json"});
    REQUIRE(run.exit_code == 0);
    auto out = nlohmann::json::parse(run.out);
    CHECK(out["schema_version"] == 1);
    CHECK(out["image"]["format"] == "rootfs");
    CHECK(out["distro"]["version_id"] == "24.04");
    std::vector<std::pair<std::string, std::string>> cudnn;
    for (const auto& c : out["components"])
        if (c["name"] == "cudnn") cudnn.emplace_back(c["location"], c["version"]);
    CHECK(cudnn == std::vector<std::pair<std::string, std::string>>{{"/opt/conda", "9.1.0.70"},
                                                                    {"/usr", "9.19.0"}});
    for (const auto& c : out["components"])
        for (const char* key : {"name", "category", "version", "source", "location",
                                "versions_agree", "files", "attributes", "evidence"})
            CHECK(c.contains(key));

    auto bad = test::run_cuvet({"inventory", "/nonexistent/image.tar"});
    CHECK(bad.exit_code == 3);
}
