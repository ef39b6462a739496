#include "cuvet/dockerfile/parser.hpp"

#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"

using namespace cuvet;
using dockerfile::parse;

TEST_CASE("instructions keep their line spans", "[dockerfile]") {
    auto df = parse(
        "# syntax=docker/dockerfile:1\n"
        "FROM ubuntu:22.04 AS base\n"
        "RUN apt-get update && \\\n"
        "    # a comment inside the continuation\n"
        "\n"
        "    apt-get install -y curl\n"
        "CMD [\"bash\"]\n");
    REQUIRE(df.instructions.size() == 3);
    CHECK(df.syntax == "docker/dockerfile:1");
    CHECK(df.instructions[1].keyword == "run");
    CHECK(df.instructions[1].start_line == 3);
    CHECK(df.instructions[1].end_line == 6);
    CHECK(df.instructions[1].args ==
          std::vector<std::string>{"apt-get update &&     apt-get install -y curl"});
    CHECK(df.instructions[2].json);
    CHECK(df.instructions[2].start_line == 7);
    CHECK_FALSE(df.warnings.empty());  // the blank line inside the continuation
}

TEST_CASE("heredocs: several per line, <<-, quoted delimiters", "[dockerfile]") {
    auto df = parse(
        "FROM alpine\n"
        "RUN <<EOF1 cat && 3<<-'EOF2' cat\n"
        "echo $HOME\n"
        "EOF1\n"
        "\tline two\n"
        "\tEOF2\n"
        "COPY <<\"CONF\" /etc/app.conf\n"
        "key=value\n"
        "CONF\n"
        "RUN [\"echo\", \"<<NOTAHEREDOC\"]\n");
    REQUIRE(df.instructions.size() == 4);
    const auto& run = df.instructions[1];
    REQUIRE(run.heredocs.size() == 2);
    CHECK(run.heredocs[0].name == "EOF1");
    CHECK(run.heredocs[0].expand);
    CHECK(run.heredocs[0].content == "echo $HOME\n");
    CHECK(run.heredocs[1].name == "EOF2");
    CHECK(run.heredocs[1].chomp);
    CHECK(run.heredocs[1].fd == 3);
    CHECK_FALSE(run.heredocs[1].expand);
    CHECK(run.start_line == 2);
    CHECK(run.end_line == 6);
    CHECK(df.instructions[2].heredocs.at(0).name == "CONF");
    CHECK(df.instructions[2].heredocs.at(0).content == "key=value\n");
    CHECK(df.instructions[3].heredocs.empty());
    CHECK(df.instructions[3].start_line == 10);
}

TEST_CASE("escape directive switches the continuation character", "[dockerfile]") {
    auto df = parse("# escape=`\nFROM mcr.microsoft.com/windows\nRUN dir c:\\ `\n  && echo hi\n");
    CHECK(df.escape == '`');
    REQUIRE(df.instructions.size() == 2);
    CHECK(df.instructions[1].args.at(0) == "dir c:\\   && echo hi");
}

TEST_CASE("flags and ONBUILD", "[dockerfile]") {
    auto df = parse(
        "FROM --platform=$BUILDPLATFORM golang AS build\n"
        "COPY --from=build --chown=1:1 /out /app\n"
        "ONBUILD RUN pip install torch\n");
    CHECK(df.instructions[0].flags == std::vector<std::string>{"--platform=$BUILDPLATFORM"});
    CHECK(df.instructions[0].args == std::vector<std::string>{"golang", "AS", "build"});
    CHECK(dockerfile::dump(df.instructions[1]) ==
          "copy [\"--from=build\" \"--chown=1:1\"] \"/out\" \"/app\"");
    REQUIRE(df.instructions[2].onbuild.size() == 1);
    CHECK(dockerfile::dump(df.instructions[2]) == "onbuild (run \"pip install torch\")");
}

TEST_CASE("malformed Dockerfiles fail with the line", "[dockerfile]") {
    auto message = [](const std::string& text) {
        try {
            parse(text, "Dockerfile");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::input);
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("FROM a\nRUN <<EOF\necho hi\n"),
               Catch::Contains("Dockerfile:2-3") && Catch::Contains("unterminated heredoc"));
    CHECK_THAT(message("FROM a\nENV PATH\n"), Catch::Contains("Dockerfile:2"));
    CHECK_THAT(message("FROM a\nCMD [\"a\", 1]\n"), Catch::Contains("strings only"));
    CHECK_THAT(message(std::string("FROM a\nRUN x\0y\n", 15)),
               Catch::Contains("Dockerfile:2: NUL"));
    CHECK_THAT(message("FROM a\nRUN echo " + std::string(10 * 1024 * 1024, 'x') + "\n"),
               Catch::Contains("Dockerfile:2: line is"));
    CHECK_THAT(message("# only a comment\n\n"), Catch::Contains("no instructions"));
    CHECK_THAT(message("# escape=x\nFROM a\n"), Catch::Contains("invalid escape token"));
}

TEST_CASE("heredoc edge cases behave like BuildKit", "[dockerfile]") {
    auto df = parse(
        "FROM alpine\n"
        "USER <<NOTHERE\n"  // only RUN/COPY/ADD take heredocs
        "RUN --mount=type=cache,target=/c <<M\n"
        "# not a Dockerfile comment\n"
        "echo hi # trailing\n"
        "M\n"
        "COPY <<A <<B /dest\n"  // bodies in order; each ends at its own name
        "B\n"
        "A\n"
        "A\n"
        "B\n"
        "RUN <<-T\n"
        "\tbody\n"
        "\t\tT\n"
        "RUN \"<<QUOTED\" '<<SINGLE'\n");
    REQUIRE(df.instructions.size() == 6);
    CHECK(df.instructions[1].heredocs.empty());
    const auto& run = df.instructions[2];
    REQUIRE(run.heredocs.size() == 1);
    CHECK(run.heredocs[0].content == "# not a Dockerfile comment\necho hi # trailing\n");
    CHECK(df.comments.empty());
    const auto& copy = df.instructions[3];
    REQUIRE(copy.heredocs.size() == 2);
    CHECK(copy.heredocs[0].content == "B\n");
    CHECK(copy.heredocs[1].content == "A\n");
    CHECK(copy.end_line == 11);
    CHECK(df.instructions[4].heredocs.at(0).content ==
          "\tbody\n");  // chomping is the builder's job
    CHECK(df.instructions[5].heredocs.empty());
}
