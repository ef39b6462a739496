// rules/gpus.json against real ptxas programs: every architecture a ptxas's
// CUDA release should know (first_cuda, or arch_specific_first_cuda for the
// sm_XYa target Triton assembles for, through last_cuda) it must accept, and
// every one outside that range it must refuse with the error Triton shows.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>

#include "cuvet/rules/database.hpp"
#include "support/process.hpp"
#include "support/real_ptxas.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;

TEST_CASE("rules/gpus.json agrees with what real ptxas programs accept", "[rules][gpus][real]") {
    auto programs = cuvet::test::real_ptxas_programs();
    if (programs.empty()) {
        CUVET_SKIP("skipped: no real ptxas (/usr/local/cuda/bin/ptxas, CUVET_TEST_PTXAS)");
    }
    const Database db = Database::load();
    cuvet::test::TempDir dir;
    const auto ptx = dir.path() / "k.ptx";
    // The smallest module: only --gpu-name is judged here.
    std::ofstream(ptx)
        << ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k() { ret; }\n";
    for (const auto& ptxas : programs) {
        auto banner = cuvet::test::run_shell(ptxas.string() + " --version");
        std::smatch m;
        REQUIRE(std::regex_search(banner.out, m, std::regex(R"(release (\d+\.\d+))")));
        const Version release = *Version::parse(m[1].str());
        int judged = 0;
        for (const auto& gpu : db.gpus()) {
            const int sm = gpu.sm();
            const std::string target = "sm_" + std::to_string(sm) + (sm >= 90 ? "a" : "");
            auto first = sm >= 90 && gpu.arch_specific_first_cuda ? gpu.arch_specific_first_cuda
                                                                  : gpu.first_cuda;
            std::optional<bool> expected;  // nullopt: the table does not say
            if (!gpu.still_supported && gpu.last_cuda && release > gpu.last_cuda->truncated(2))
                expected = false;
            else if (first && release < first->truncated(2))
                expected = false;
            else if (first && (gpu.still_supported || gpu.last_cuda))
                expected = true;
            if (!expected) continue;
            auto run =
                cuvet::test::run_shell(ptxas.string() + " --gpu-name=" + target + " " +
                                       ptx.string() + " -o " + (dir.path() / "k.cubin").string());
            const bool refused =
                run.err.find("is not defined for option 'gpu-name'") != std::string::npos;
            INFO(ptxas.string() << " (CUDA " << release.str() << ") --gpu-name=" << target << ": "
                                << run.err);
            CHECK(refused == !*expected);
            ++judged;
        }
        CHECK(judged >= 10);
    }
}
