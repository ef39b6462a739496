#include "cuvet/rules/database.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "cuvet/rules/embedded.hpp"
#include "rules/rules_fixtures.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;

using namespace cuvet::test;

TEST_CASE("every compiled-in rules file loads and is a known table", "[rules]") {
    std::set<std::string> embedded;
    for (const auto& [name, text] : cuvet::rules::embedded_rule_files()) {
        embedded.insert(std::string(name));
        CHECK_FALSE(text.empty());
    }
    for (const auto& table : Database::table_names()) CHECK(embedded.count(table + ".json") == 1);
    REQUIRE(db().tables().size() == Database::table_names().size());
    for (const auto& table : db().tables()) {
        INFO(table.name);
        CHECK_FALSE(table.data_version.empty());
        CHECK(table.facts > 0);
        CHECK(table.origin.find("built-in") != std::string::npos);
    }
}

TEST_CASE("every fact carries a source with a URL and a title", "[rules]") {
    auto check = [](const cuvet::rules::Provenance& p) {
        CHECK_FALSE(p.source.url.empty());
        CHECK_FALSE(p.source.title.empty());
    };
    for (const auto& e : db().driver_entries()) check(e.provenance);
    for (const auto& e : db().cudnn_releases()) check(e.provenance);
    for (const auto& e : db().framework_builds()) check(e.provenance);
    for (const auto& e : db().gpus()) check(e.provenance);
    for (const auto& e : db().sonames()) check(e.provenance);
    for (const auto& e : db().cudnn_flavors()) check(e.provenance);
}

TEST_CASE("min_driver_for picks the release row of the same minor", "[rules]") {
    auto exact = db().min_driver_for(v("12.2.2"));
    REQUIRE(exact);
    CHECK(exact->exact);
    REQUIRE(exact->min_driver);
    CHECK(exact->min_driver->str() == "535.104.05");

    auto ga = db().min_driver_for(v("12.2"));
    REQUIRE(ga);
    CHECK(ga->min_driver->str() == "535.54.03");

    // A later patch than the table knows: the nearest earlier row, flagged inexact.
    auto later = db().min_driver_for(v("11.8.9"));
    REQUIRE(later);
    CHECK_FALSE(later->exact);
    CHECK(later->min_driver->str() == "520.61.05");

    // A row whose value nobody verified stays unknown: the built-in tables
    // with 12.2.1's minimum replaced by null (as a fresh, unchecked row is).
    std::vector<Database::File> files;
    for (const auto& [name, text] : cuvet::rules::embedded_rule_files()) {
        std::string copy(text);
        if (name == "cuda_drivers.json") {
            auto json = nlohmann::json::parse(copy);
            for (auto& row : json["entries"])
                if (row["cuda"] == "12.2.1") row["min_driver"] = nullptr;
            copy = json.dump();
        }
        files.push_back({std::string(name), copy, "test"});
    }
    const Database with_unknown = Database::from_files(files);
    auto unknown = with_unknown.min_driver_for(v("12.2.1"));
    REQUIRE(unknown);
    CHECK_FALSE(unknown->min_driver);
    REQUIRE(db().min_driver_for(v("12.2.1")));
    CHECK(db().min_driver_for(v("12.2.1"))->min_driver->str() == "535.86.09");

    CHECK_FALSE(db().min_driver_for(v("12.7")));  // no such toolkit
    CHECK_FALSE(db().min_driver_for(v("99.0")));
    REQUIRE(db().minor_version_compat(12));
    CHECK(db().minor_version_compat(12)->min_driver->str() == "525.60.13");
}

TEST_CASE("soname lookups map CUDA libraries to their major", "[rules]") {
    CHECK(db().cuda_major_for_soname("libcudart.so.11.0") == 11);
    CHECK(db().cuda_major_for_soname("libcudart.so.13") == 13);
    CHECK(db().cuda_major_for_soname("libcublasLt.so.12") == 12);
    // libcurand.so.10 ships with several majors: it pins none.
    CHECK_FALSE(db().cuda_major_for_soname("libcurand.so.10"));
    REQUIRE(db().soname("libcurand.so.10"));
    CHECK(db().soname("libcurand.so.10")->cuda_majors.size() > 1);
    CHECK_FALSE(db().cuda_major_for_soname("libfoo.so.1"));
}

TEST_CASE("cuDNN sonames and version encoding", "[rules]") {
    auto nine = db().cudnn_sonames(9);
    REQUIRE(nine);
    CHECK(nine->main == "libcudnn.so.9");
    CHECK(nine->libraries.size() == 8);
    CHECK(db().cudnn_major_for_soname("libcudnn_cnn_infer.so.8") == 8);
    CHECK(db().cudnn_major_for_soname("libcudnn_engines_precompiled.so.9") == 9);
    CHECK_FALSE(db().cudnn_major_for_soname("libcudart.so.12"));
    CHECK(db().decode_cudnn_version(91900)->str() == "9.19.0");
    CHECK(db().decode_cudnn_version(8902)->str() == "8.9.2");
    CHECK(db().decode_cudnn_version(7605)->str() == "7.6.5");
    CHECK_FALSE(db().decode_cudnn_version(0));
    auto release = db().cudnn_release(v("9.10.2.21"));
    REQUIRE(release);
    CHECK(release->version.str() == "9.10.2");
}

TEST_CASE("framework builds by version and variant", "[rules]") {
    auto tf = db().framework_build("tensorflow", v("2.12.1"), "");
    REQUIRE(tf);
    CHECK(tf->cudnn->str() == "8.6");
    CHECK(tf->cuda->str() == "11.8");
    auto torch = db().framework_build("pytorch", v("2.1.2"), "cu118");
    REQUIRE(torch);
    CHECK(torch->cudnn->str() == "8.7.0.84");
    auto torch_default = db().framework_build("pytorch", v("2.5.1"), "");
    REQUIRE(torch_default);
    CHECK(torch_default->variant == "cu124");
    // 1.18.1 has its own CUDA 12 row (cuDNN 9) that overrides the general 1.18 one.
    auto ort = db().framework_build("onnxruntime", v("1.18.1"), "cuda12");
    REQUIRE(ort);
    CHECK(ort->cudnn_major == 9);
    CHECK(db().framework_build("onnxruntime", v("1.18.0"), "cuda12")->cudnn_major == 8);
    CHECK(db().framework_builds("pytorch", v("2.7.0")).size() == 3);
    CHECK(db().framework_builds("pytorch", v("3.0")).empty());
    REQUIRE(db().cudnn_load_rule("tensorflow"));
    CHECK(db().cudnn_load_rule("tensorflow")->rule == "same_major_minor_at_least");
}

TEST_CASE("GPUs by product name or architecture spelling", "[rules]") {
    for (const char* name :
         {"H100", "h100", "NVIDIA H100", "sm_90", "sm_90a", "9.0", "90", "compute_90"}) {
        INFO(name);
        auto gpu = db().gpu(name);
        REQUIRE(gpu);
        CHECK(gpu->compute_capability.str() == "9.0");
        CHECK(gpu->sm() == 90);
    }
    REQUIRE(db().gpu("A100"));
    CHECK(db().gpu("A100")->sm() == 80);
    REQUIRE(db().gpu("RTX 4090"));
    CHECK(db().gpu("GeForce RTX 4090")->sm() == 89);
    CHECK(db().gpu("sm_120")->compute_capability.str() == "12.0");
    CHECK(db().gpu("K80")->last_cuda->str() == "11.8");
    CHECK(db().gpu("T4")->still_supported);
    CHECK_FALSE(db().gpu("Voodoo 5"));
    CHECK_FALSE(db().gpu("sm_"));
    CHECK(Database::parse_compute_capability("8.6")->str() == "8.6");
    CHECK_FALSE(Database::parse_compute_capability("x86"));
}

TEST_CASE("nvidia/cuda cuDNN flavours per CUDA version", "[rules]") {
    auto flavors = db().cudnn_flavors_for(v("12.4.1"));
    REQUIRE(flavors.size() == 1);
    CHECK(flavors[0]->flavor_prefix == "cudnn");
    CHECK(flavors[0]->cudnn_major == 9);
    auto old = db().cudnn_flavors_for(v("11.8.0"));
    REQUIRE(old.size() == 1);
    CHECK(old[0]->flavor_prefix == "cudnn8");
    CHECK(db().cudnn_flavors_for(v("10.2")).empty());
}

TEST_CASE("facts issue 11 found wrong stay fixed", "[rules]") {
    // cuDNN 9.5.x also ships a CUDA 11.0-11.7 build (dynamic linking only).
    for (const char* version : {"9.5.0", "9.5.1"}) {
        INFO(version);
        const auto* release = db().cudnn_release(v(version));
        REQUIRE(release);
        bool has_11_0 = false;
        for (const auto& build : release->builds) {
            for (const auto& cuda : build.cuda) has_11_0 |= cuda == v("11.0");
        }
        CHECK(has_11_0);
    }
    // CUDA 11.0 still ships libcusolver.so.10, so the soname pins no single major.
    const auto* cusolver10 = db().soname("libcusolver.so.10");
    REQUIRE(cusolver10);
    CHECK(cusolver10->cuda_majors == std::vector<int>{10, 11});
    CHECK_FALSE(db().cuda_major_for_soname("libcusolver.so.10"));
}

TEST_CASE("each table names its newest entry and the day its facts were checked", "[rules]") {
    for (const auto& table : db().tables()) {
        INFO(table.name);
        CHECK(table.newest == db().newest_entry(table.name));
        REQUIRE(table.data_date.size() == 10);
        CHECK(table.data_date.substr(0, 2) == "20");
        CHECK(table.data_date[4] == '-');
    }
    // The newest CUDA release is the greatest one, not the first row.
    Version newest = v(db().newest_entry("cuda_drivers").c_str());
    for (const auto& e : db().driver_entries()) CHECK(e.cuda <= newest);
    CHECK(db().newest_entry("cudnn") == db().cudnn_releases().front().version.str());
    CHECK(db().newest_entry("gpus").rfind("compute capability ", 0) == 0);
    CHECK(db().newest_entry("nvidia_cuda_tags").rfind("nvidia/cuda 13.", 0) == 0);
    // The newest JAX is the single-release row 0.11.2, past the range row "0.7.2" .. "0.11.0"
    // (a range vouches for its last release: ONNX Runtime's newest comes from one).
    CHECK(db().newest_entry("frameworks").find("jax 0.11.2") != std::string::npos);
    // NGC: the newest monthly release per image ("26.06" beats "19.03", not by text order alone).
    CHECK(db().newest_entry("ngc_containers") ==
          "jax 26.07, pytorch 26.09, tensorflow 25.02, tensorrt 25.10, tritonserver 26.10");
    CHECK(db().newest_entry("no_such_table").empty());
}

TEST_CASE("CUDA 13.x drivers and the Thor renaming", "[rules]") {
    REQUIRE(db().min_driver_for(v("13.2.1")));
    CHECK(db().min_driver_for(v("13.2.1"))->min_driver->str() == "595.58.03");
    CHECK(db().min_driver_for(v("13.3.0"))->min_driver->str() == "610.43.02");
    // Listed releases whose minimum nobody read stay unknown rather than borrowing 12.9.1's.
    auto runfile_only = db().min_driver_for(v("12.9.2"));
    REQUIRE(runfile_only);
    CHECK(runfile_only->exact);
    CHECK_FALSE(runfile_only->min_driver);
    CHECK_FALSE(db().min_driver_for(v("13.4.1"))->min_driver);
    // Jetson Thor: sm_101 up to CUDA 12.9, sm_110 from 13.0.
    REQUIRE(db().gpu("Jetson AGX Thor"));
    CHECK(db().gpu("Jetson AGX Thor")->compute_capability.str() == "11.0");
    CHECK(db().gpu("sm_101")->last_cuda->str() == "12.9");
    CHECK(db().gpu("sm_110")->first_cuda->str() == "13.0");
    CHECK(db().gpu("V100")->last_cuda->str() == "12.9");
    CHECK(db().gpu("sm_30")->last_cuda->str() == "10.2");
    // Which toolkit dropped which architecture: Fermi in 9.0, Kepler 3.0/3.2 in 11.0, 3.5/3.7 in
    // 12.0, Maxwell/Pascal/Volta in 13.0; Turing stays.
    CHECK(db().gpu("sm_20")->last_cuda->str() == "8.0");
    CHECK(db().gpu("sm_21")->last_cuda->str() == "8.0");
    CHECK(db().gpu("3.2")->last_cuda->str() == "10.2");
    CHECK(db().gpu("sm_37")->last_cuda->str() == "11.8");
    for (const char* arch :
         {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72"})
        CHECK(db().gpu(arch)->last_cuda->str() == "12.9");
    CHECK(db().gpu("sm_75")->still_supported);
}
