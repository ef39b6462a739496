// libFuzzer target for the Dockerfile front end: parser, dumper, stage
// analysis (substitution, ARG scoping), RUN splitting and fact extraction.
// Any input must either parse or end in cuvet::Error; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cuvet/core/error.hpp"
#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/dockerfile/shell.hpp"
#include "cuvet/dockerfile/stages.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cuvet;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        auto parsed = dockerfile::parse(text, "fuzz");
        (void)dockerfile::dump(parsed);
        dockerfile::AnalyzeOptions options;
        options.build_args["CUDA"] = "12.4.1";
        auto build = dockerfile::analyze(parsed, options);
        auto facts = dockerfile::extract_facts(std::move(parsed), std::move(build));
        (void)facts.final_stage();
    } catch (const Error&) {
    }
    // The lexers on their own, on the raw bytes: RUN scripts reach them unparsed.
    auto lookup = [](std::string_view name) -> std::optional<std::string> {
        if (name == "X") return std::string("a b");
        return std::nullopt;
    };
    try {
        (void)dockerfile::shell::split_commands(text, lookup);
    } catch (const Error&) {
    }
    try {
        (void)dockerfile::shell::expand_word(text, lookup);
    } catch (const Error&) {
    }
    return 0;
}
