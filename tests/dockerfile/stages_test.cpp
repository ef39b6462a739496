#include "cuvet/dockerfile/stages.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/dockerfile/facts.hpp"

using namespace cuvet;
using namespace cuvet::dockerfile;

TEST_CASE("ARG scoping and stages follow BuildKit", "[dockerfile]") {
    auto df = parse(
        "ARG CUDA=12.1.1\n"
        "ARG FLAVOR\n"
        "FROM nvidia/cuda:${CUDA}-cudnn8-devel-ubuntu22.04 AS build\n"
        "RUN echo $CUDA\n"
        "ARG CUDA\n"
        "ENV TORCH=2.1.0 CUDA_HOME=/usr/local/cuda\n"
        "RUN pip install torch==${TORCH}+cu121\n"
        "FROM build AS test\n"
        "RUN pip install pytest\n"
        "FROM --platform=$TARGETPLATFORM "
        "nvidia/cuda:${CUDA}-runtime-ubuntu22.04${FLAVOR:+-$FLAVOR}\n"
        "COPY --from=build /w /w\n");
    auto build = analyze(df);
    REQUIRE(build.stages.size() == 3);
    CHECK(build.final_stage == 2);
    const Stage& first = build.stages[0];
    CHECK(first.name == "build");
    CHECK(first.base == "nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04");
    CHECK(first.lookup("CUDA") == std::optional<std::string>("12.1.1"));
    CHECK(first.runs.at(1).commands.at(0).words ==
          std::vector<std::string>{"pip", "install", "torch==2.1.0+cu121"});
    CHECK(build.stages[1].base_stage == std::optional<std::size_t>(0));
    CHECK(build.stages[1].lookup("TORCH") == std::optional<std::string>("2.1.0"));
    CHECK_FALSE(build.stages[1].lookup("CUDA"));  // ARGs do not cross stages
    CHECK(build.stages[2].base == "nvidia/cuda:12.1.1-runtime-ubuntu22.04");
    CHECK(build.stages[2].platform == "linux/amd64");
    CHECK(build.stages[2].copy_from.at(0).from == "build");

    AnalyzeOptions options;
    options.build_args["CUDA"] = "11.8.0";
    options.target = "build";
    auto other = analyze(df, options);
    CHECK(other.final_stage == 0);
    CHECK(other.stages[0].base == "nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04");
}

TEST_CASE("RUN heredocs are split as scripts", "[dockerfile]") {
    auto df = parse("FROM python:3.11\nRUN <<EOF\nset -e\npip install onnxruntime-gpu\nEOF\n");
    auto build = analyze(df);
    const auto& commands = build.stages[0].runs.at(0).commands;
    REQUIRE(commands.size() == 2);
    CHECK(commands[1].words == std::vector<std::string>{"pip", "install", "onnxruntime-gpu"});
}

TEST_CASE("RUN under a non-POSIX SHELL is not read as sh", "[dockerfile]") {
    auto df = parse(
        "# escape=`\n"
        "FROM mcr.microsoft.com/windows/servercore:ltsc2022\n"
        "SHELL [\"powershell\", \"-Command\"]\n"
        "RUN Write-Host \"it's fine\n");
    auto build = analyze(df);
    CHECK(build.stages.at(0).runs.empty());
}

TEST_CASE("instructions docker rejects are input errors with the line", "[dockerfile]") {
    auto message = [](const std::string& text) {
        try {
            analyze(parse(text, "Dockerfile"));
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("FROM a\nFROBNICATE x\n"),
               Catch::Contains("Dockerfile:2: unknown instruction"));
    CHECK_THAT(message("RUN x\nFROM a\n"),
               Catch::Contains("Dockerfile:1: RUN before the first FROM"));
    CHECK_THAT(message("FROM a\nRUN echo \"open\n"),
               Catch::Contains("Dockerfile:2: unbalanced \""));
    CHECK_THAT(message("FROM a\nENV X=\"open\n"), Catch::Contains("Dockerfile:2"));
    CHECK_THAT(message("\x7f\x45LF\x02\x01\n"), Catch::Contains("unknown instruction"));
}

TEST_CASE("doubling ARG and ENV values stop at expansion-bytes", "[dockerfile][limits]") {
    // A0 is 16 bytes; A17 would be 2 MiB, A47 2 PiB: the default 1 MiB stops A17.
    for (const std::string keyword : {"ARG", "ENV"}) {
        INFO(keyword);
        std::string text =
            "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\n" + keyword + " A0=xxxxxxxxxxxxxxxx\n";
        for (int i = 1; i <= 47; ++i)
            text += keyword + " A" + std::to_string(i) + "=${A" + std::to_string(i - 1) + "}${A" +
                    std::to_string(i - 1) + "}\n";
        text += "RUN echo $A47\n";
        try {
            analyze(parse(text));
            FAIL("expanded without a limit");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::input);  // exit 3
            CHECK_THAT(e.what(), Catch::Contains("Dockerfile:19: more than 1048576 bytes in one "
                                                 "expanded word (limit expansion-bytes=1M"));
        }
    }
    // A global ARG used in FROM.
    std::string text = "ARG B0=yyyyyyyyyyyyyyyy\n";
    for (int i = 1; i <= 30; ++i)
        text += "ARG B" + std::to_string(i) + "=$B" + std::to_string(i - 1) + "$B" +
                std::to_string(i - 1) + "\n";
    text += "FROM $B30\n";
    CHECK_THROWS_WITH(analyze(parse(text)), Catch::Contains("limit expansion-bytes=1M"));
}

TEST_CASE("chained stages resolve in linear time, and stages caps their count",
          "[dockerfile][limits]") {
    // 5,000 stages each FROM the one before and COPY --from it, every one resolved. Stages are
    // found by name through a map; the time is not asserted (a timed test fails on a slow or
    // sanitized build, where this took 16 s at 30,000 stages).
    std::string text = "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04 AS s0\n";
    for (int i = 1; i < 5000; ++i) {
        const std::string previous = "s" + std::to_string(i - 1);
        text += "FROM " + previous + " AS s" + std::to_string(i) + "\nCOPY --from=" + previous +
                " /opt/conda /opt/conda\n";
    }
    ScanLimits limits;
    limits.stages = 5000;
    set_scan_limits(limits);
    auto build = analyze(parse(text));
    auto facts = extract_facts(parse(text), std::move(build));
    set_scan_limits(ScanLimits{});
    REQUIRE(facts.build.stages.size() == 5000);
    CHECK(facts.build.stages.back().base_stage == std::optional<std::size_t>(4998));
    CHECK(facts.stages.back().parent == std::optional<std::size_t>(4998));
    // The default (4096) stops the same file at its 4097th FROM.
    CHECK_THROWS_WITH(
        analyze(parse(text)),
        Catch::Contains("more than 4096 build stages (FROM lines) (limit stages=4096"));
}
