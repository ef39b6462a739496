#include "cuvet/dockerfile/history.hpp"

#include <cctype>

namespace cuvet::dockerfile {
namespace {

std::string collapse(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

bool consume(std::string_view& text, std::string_view prefix) {
    if (!text.starts_with(prefix)) return false;
    text.remove_prefix(prefix.size());
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    return true;
}

// BuildKit writes the build args a RUN saw as "|N A=1 B=2 " before the command.
void drop_build_args(std::string_view& text) {
    if (text.empty() || text.front() != '|') return;
    std::size_t i = 1;
    int count = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        count = count * 10 + (text[i++] - '0');
    text.remove_prefix(i);
    for (int k = 0; k < count && !text.empty(); ++k) {
        while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
        auto space = text.find(' ');
        text.remove_prefix(space == std::string_view::npos ? text.size() : space);
    }
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
}

std::string instruction_text(const Instruction& ins) {
    if (ins.keyword == "run" && !ins.json && !ins.args.empty()) return collapse(ins.args[0]);
    std::string text;
    for (const auto& arg : ins.args) text += (text.empty() ? "" : " ") + arg;
    return collapse(text);
}

bool matches(const HistoryStep& step, const Instruction& ins) {
    if (step.keyword != upper(ins.keyword)) return false;
    if (step.keyword != "RUN" || ins.json) return true;
    const std::string want = instruction_text(ins);
    // Heredoc RUNs and long commands may be abbreviated: accept a prefix.
    return step.text == want || (!want.empty() && step.text.starts_with(want)) ||
           (!step.text.empty() && want.starts_with(step.text));
}

}  // namespace

HistoryStep normalise_history(const std::string& created_by) {
    std::string_view text = created_by;
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.ends_with("# buildkit")) text.remove_suffix(10);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    HistoryStep step;
    const bool legacy_shell = consume(text, "/bin/sh -c");
    if (legacy_shell && !consume(text, "#(nop)")) {
        step.keyword = "RUN";
        step.text = collapse(text);
        return step;
    }
    auto space = text.find(' ');
    step.keyword = upper(std::string(text.substr(0, space)));
    text.remove_prefix(space == std::string_view::npos ? text.size() : space);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (step.keyword == "RUN") {
        drop_build_args(text);
        if (!consume(text, "/bin/sh -c")) consume(text, "/bin/bash -c");
    }
    step.text = collapse(text);
    return step;
}

std::vector<std::optional<std::size_t>> match_history(const Dockerfile& dockerfile,
                                                      const Build& build,
                                                      const std::vector<std::string>& created_by) {
    std::vector<std::optional<std::size_t>> out(created_by.size());
    if (build.stages.empty()) return out;
    // The final stage and the stages it is built FROM, newest instruction last.
    std::vector<std::size_t> chain;
    for (std::optional<std::size_t> s = build.final_stage; s; s = build.stages.at(*s).base_stage) {
        const auto& ins = build.stages.at(*s).instructions;
        chain.insert(chain.begin(), ins.begin(), ins.end());
    }
    std::vector<std::size_t> steps;
    for (std::size_t index : chain) {
        const auto& k = dockerfile.instructions.at(index).keyword;
        if (k != "from" && k != "arg" && k != "onbuild") steps.push_back(index);
    }
    std::size_t h = created_by.size();
    std::size_t i = steps.size();
    while (h > 0 && i > 0) {
        const HistoryStep step = normalise_history(created_by[h - 1]);
        if (step.keyword == "ARG") {
            --h;
            continue;
        }
        const Instruction& ins = dockerfile.instructions.at(steps[i - 1]);
        if (matches(step, ins)) {
            out[h - 1] = steps[i - 1];
            --h;
            --i;
            continue;
        }
        // Skip whichever side cannot be matched any more: an instruction that
        // left no history entry (BuildKit omits some), or a foreign entry.
        bool later_match = false;
        for (std::size_t j = i - 1; j > 0 && !later_match; --j) {
            later_match = matches(step, dockerfile.instructions.at(steps[j - 1]));
        }
        if (later_match)
            --i;
        else
            --h;
    }
    return out;
}

}  // namespace cuvet::dockerfile
