#include "cuvet/dockerfile/facts.hpp"

#include <charconv>
#include <string>
#include <unordered_map>

#include "dockerfile/packages.hpp"

namespace cuvet::dockerfile {
namespace {

// COPY --from sources that carry installed Python/conda packages with them;
// copying a model file from a builder stage does not.
bool copies_environment(const CopyFrom& copy) {
    for (const auto& source : copy.sources) {
        for (std::string_view marker :
             {"site-packages", "dist-packages", "venv", "/opt/conda", "conda",
              "/usr/local/lib/python", "/root/.local", ".local/lib"}) {
            if (source.find(marker) != std::string::npos) return true;
        }
        if (source == "/" || source == "/usr" || source == "/usr/local" || source == "/opt")
            return true;
    }
    return false;
}

// The first stage before `before` that `name` names (its AS name, or its
// index written in decimal), found through `first_named` (each name's first
// stage, filled as stages are read): linear in the stage count.
std::optional<std::size_t> stage_named(
    const std::unordered_map<std::string, std::size_t>& first_named, const std::string& name,
    std::size_t before) {
    std::optional<std::size_t> found;
    if (auto it = first_named.find(name); it != first_named.end() && it->second < before)
        found = it->second;
    std::size_t index = 0;
    auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), index);
    if (error == std::errc{} && end == name.data() + name.size() && index < before &&
        std::to_string(index) == name && (!found || index < *found))
        found = index;
    return found;
}

}  // namespace

std::string_view to_string(Manager manager) {
    switch (manager) {
        case Manager::pip:
            return "pip";
        case Manager::conda:
            return "conda";
        case Manager::apt:
            return "apt";
    }
    return "?";
}

const Variable* Facts::env_variable(std::size_t stage, std::string_view name) const {
    const auto& env = build.stages.at(stage).env;
    for (auto it = env.rbegin(); it != env.rend(); ++it) {
        if (it->name == name) return &*it;
    }
    return nullptr;
}

std::optional<std::string> Facts::env(std::size_t stage, std::string_view name) const {
    return build.stages.at(stage).lookup(name);
}

Facts extract_facts(Dockerfile dockerfile, Build build) {
    Facts facts;
    facts.dockerfile = std::move(dockerfile);
    facts.build = std::move(build);
    std::unordered_map<std::string, std::size_t> first_named;
    for (const Stage& stage : facts.build.stages) {
        if (!stage.name.empty()) first_named.try_emplace(stage.name, stage.index);
        StageFacts sf;
        sf.stage = stage.index;
        if (stage.base_stage) {
            const StageFacts& parent = facts.stages.at(*stage.base_stage);
            sf.parent = *stage.base_stage;
            sf.base = parent.base;
            sf.packages = parent.packages;
            sf.requirements = parent.requirements;
            sf.holds = parent.holds;
            sf.conda_channels = parent.conda_channels;
            for (auto& p : sf.packages) p.inherited = true;
        } else {
            sf.base = read_base(stage.base);
            sf.base.line = stage.from_line;
        }
        for (const CopyFrom& copy : stage.copy_from) {
            auto source = stage_named(first_named, copy.from, stage.index);
            if (!source || !copies_environment(copy)) continue;
            for (Package p : facts.stages.at(*source).packages) {
                if (p.manager == Manager::apt) continue;
                p.inherited = true;
                sf.packages.push_back(std::move(p));
            }
            // What a copied environment holds came from its stage's installs, the ones the
            // linter cannot read included (`uv sync` into a venv, `pip install -r` into conda).
            for (const RequirementsFile& r : facts.stages.at(*source).requirements) {
                if (r.manager != Manager::apt) sf.requirements.push_back(r);
            }
        }
        detail::CommandFacts found;
        for (const RunStep& run : stage.runs) {
            Package tmpl;
            tmpl.line = run.start_line;
            tmpl.end_line = run.end_line;
            tmpl.stage = stage.index;
            for (const auto& command : run.commands)
                detail::read_command(command.words, tmpl, found);
        }
        for (auto& p : found.packages) sf.packages.push_back(std::move(p));
        for (auto& r : found.requirements) sf.requirements.push_back(std::move(r));
        for (auto& h : found.holds) sf.holds.push_back(std::move(h));
        for (auto& c : found.conda_channels) sf.conda_channels.push_back(std::move(c));
        facts.stages.push_back(std::move(sf));
    }
    return facts;
}

}  // namespace cuvet::dockerfile
