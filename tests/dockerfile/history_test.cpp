#include "cuvet/dockerfile/history.hpp"

#include <catch2/catch.hpp>

using namespace cuvet::dockerfile;

TEST_CASE("history entries normalise across builders", "[dockerfile][history]") {
    auto s = normalise_history("RUN |2 CUDA=12.1 PY=3.11 /bin/sh -c pip install torch # buildkit");
    CHECK(s.keyword == "RUN");
    CHECK(s.text == "pip install torch");
    s = normalise_history("/bin/sh -c #(nop)  ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64");
    CHECK(s.keyword == "ENV");
    CHECK(s.text == "LD_LIBRARY_PATH=/usr/local/cuda/lib64");
    s = normalise_history("/bin/sh -c apt-get update &&     apt-get install -y x");
    CHECK(s.keyword == "RUN");
    CHECK(s.text == "apt-get update && apt-get install -y x");
}

TEST_CASE("image history maps back to final-stage lines", "[dockerfile][history]") {
    auto df = parse(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
        "RUN make\n"
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "ARG TORCH=2.5.1\n"
        "ENV PIP_NO_CACHE_DIR=1\n"
        "RUN pip install \\\n    torch==${TORCH}\n"
        "COPY --from=build /out /app\n"
        "CMD [\"python3\"]\n");
    auto build = analyze(df);
    std::vector<std::string> history = {
        "/bin/sh -c #(nop) ADD file:abc in / ",  // base image
        "ENV CUDA_VERSION=12.4.1",               // base image
        "ARG TORCH=2.5.1",
        "ENV PIP_NO_CACHE_DIR=1",
        "RUN |1 TORCH=2.5.1 /bin/sh -c pip install     torch==${TORCH} # buildkit",
        "COPY /out /app # buildkit",
        "CMD [\"python3\"]",
    };
    auto matched = match_history(df, build, history);
    REQUIRE(matched.size() == history.size());
    CHECK_FALSE(matched[0]);
    CHECK_FALSE(matched[1]);
    REQUIRE(matched[3]);
    CHECK(df.instructions[*matched[3]].start_line == 5);
    REQUIRE(matched[4]);
    CHECK(df.instructions[*matched[4]].start_line == 6);
    CHECK(df.instructions[*matched[4]].end_line == 7);
    REQUIRE(matched[5]);
    CHECK(df.instructions[*matched[5]].start_line == 8);
    REQUIRE(matched[6]);
    CHECK(df.instructions[*matched[6]].keyword == "cmd");
}
