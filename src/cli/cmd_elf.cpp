// `cuvet elf IMAGE PATH [--deep] [--format text|json]`: the ELF facts of one
// file inside an image (links followed inside the image); --deep adds LIEF's view.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/elf/deep.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "output_format.hpp"

namespace cuvet::cli {
namespace {

struct ElfArgs {
    ImageArgs image;
    std::string path;
    bool deep = false;
    std::string format;
};

std::string_view basename_of(std::string_view path) {
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// "libcudnn.so.9.1.0" -> "libcudnn": the name a chain of soname links shares.
std::string_view stem_of(std::string_view name) {
    const auto so = name.find(".so");
    return so == std::string_view::npos ? name : name.substr(0, so);
}

struct Found {
    std::string resolved;
    std::shared_ptr<const std::string> bytes;
};

std::shared_ptr<const std::string> content_of(const image::FileTree& tree,
                                              const image::Resolution& where) {
    if (auto bytes = tree.content(where.path)) return bytes;
    if (const image::FileEntry* data = tree.data_entry(*where.entry))
        return tree.content(data->path);
    return nullptr;
}

// One scan keeps the bytes of every file that may be the one asked for (same
// path, or the same library stem, since libfoo.so -> libfoo.so.9 -> libfoo.so.9.1
// chains are the common case); a link that leads elsewhere costs a second scan.
Found read_from_image(const ElfArgs& args, const std::string& wanted) {
    auto opened = image::open_image(args.image.path, args.image.open_options());
    const std::string stem(stem_of(basename_of(wanted)));
    image::ScanOptions scan;
    scan.workers = args.image.workers;
    scan.select = [&](const image::FileEntry& entry) {
        return entry.path == wanted || stem_of(basename_of(entry.path)) == stem;
    };
    image::FileTree tree = opened->scan(scan);
    const image::Resolution where = tree.resolve(wanted);
    if (where.status != image::Resolution::Status::ok || !where.entry) {
        fail_input(wanted + ": no such file in the image");
    }
    if (where.entry->type == image::FileType::directory) fail_input(wanted + ": is a directory");
    auto bytes = content_of(tree, where);
    if (!bytes) {
        const std::string target = where.path;
        scan.select = [&](const image::FileEntry& entry) { return entry.path == target; };
        tree = opened->scan(scan);
        const image::Resolution again = tree.resolve(target);
        if (again.status == image::Resolution::Status::ok && again.entry) {
            bytes = content_of(tree, again);
        }
    }
    if (!bytes) fail_input(wanted + ": not a regular file in the image");
    return {where.path, bytes};
}

std::string type_name(std::uint16_t type) {
    switch (type) {
        case 1:
            return "REL";
        case 2:
            return "EXEC";
        case 3:
            return "DYN";
        case 4:
            return "CORE";
        default:
            return std::to_string(type);
    }
}

std::vector<std::string> arch_names(const std::vector<int>& archs, const char* prefix) {
    std::vector<std::string> names;
    for (int arch : archs) names.push_back(prefix + std::to_string(arch));
    return names;
}

// `from_lief` leaves out what LIEF does not read (fatbin archs, dlopen names).
nlohmann::json facts_json(const elf::ElfInfo& info, bool from_lief = false) {
    nlohmann::json needs = nlohmann::json::array();
    for (const auto& need : info.version_needs) {
        needs.push_back({{"file", need.file}, {"versions", need.versions}});
    }
    nlohmann::json out = {
        {"class", info.is_64bit ? "ELF64" : "ELF32"},
        {"machine", info.machine},
        {"machine_name", elf::machine_name(info.machine)},
        {"type", type_name(info.type)},
        {"soname", info.soname},
        {"needed", info.needed},
        {"rpath", info.has_rpath ? nlohmann::json(info.rpath) : nlohmann::json(nullptr)},
        {"runpath", info.has_runpath ? nlohmann::json(info.runpath) : nlohmann::json(nullptr)},
        {"version_needs", needs},
        {"version_definitions", info.version_definitions},
        {"imported_symbols", info.imported_symbols},
        {"exported_symbols", info.exported_symbols}};
    if (from_lief) return out;
    out["has_fatbin"] = info.has_fatbin;
    out["sass"] = arch_names(info.sass_archs, "sm_");
    out["ptx"] = arch_names(info.ptx_archs, "compute_");
    nlohmann::json sources = nlohmann::json::array();
    for (const auto& source : info.fatbin_sources) {
        sources.push_back({{"section", source.section},
                           {"containers", source.containers},
                           {"sass", arch_names(source.sass_archs, "sm_")},
                           {"ptx", arch_names(source.ptx_archs, "compute_")}});
    }
    out["fatbin_sources"] = sources;
    out["dlopen_candidates"] = info.dlopen_candidates;
    if (!info.cuda_tools_release.empty()) out["cuda_tools_release"] = info.cuda_tools_release;
    if (!info.cudnn_release.empty()) out["cudnn_release"] = info.cudnn_release;
    return out;
}

nlohmann::json deep_json(const elf::DeepView& deep) {
    nlohmann::json sections = nlohmann::json::array(), segments = nlohmann::json::array();
    for (const auto& s : deep.sections) {
        sections.push_back({{"name", s.name},
                            {"type", s.type},
                            {"address", s.address},
                            {"offset", s.offset},
                            {"size", s.size}});
    }
    for (const auto& s : deep.segments) {
        segments.push_back({{"type", s.type},
                            {"flags", s.flags},
                            {"offset", s.offset},
                            {"address", s.address},
                            {"file_size", s.file_size},
                            {"memory_size", s.memory_size}});
    }
    return {{"class", deep.elf_class},
            {"file_type", deep.file_type},
            {"machine", deep.machine},
            {"entrypoint", deep.entrypoint},
            {"interpreter", deep.interpreter},
            {"sections", sections},
            {"segments", segments},
            {"dynamic_symbols", deep.dynamic_symbols},
            {"static_symbols", deep.static_symbols},
            {"relocations", deep.relocations},
            {"lief_facts", facts_json(deep.facts, true)}};
}

[[gnu::format(printf, 1, 2)]] void emit_layout(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int length = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string text(static_cast<std::size_t>(std::max(length, 0)), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, args);
    va_end(args);
    std::fputs(printable_lines(text).c_str(), stdout);
}

// A string argument, escaped whole (its newlines too); numbers pass as they are.
template <class T>
auto field(const T& value) {
    if constexpr (std::is_convertible_v<const T&, std::string_view>)
        return printable(std::string_view(value));
    else
        return value;
}
inline const char* vararg(const std::string& text) { return text.c_str(); }
template <class T>
T vararg(T value) {
    return value;
}

// Strings from the ELF file (soname, DT_NEEDED, section names) are its
// author's: each one is escaped, newlines included, so that only the format's
// own newlines start lines in the output.
template <class... Args>
void emit(const char* format, const Args&... args) {
    std::apply([&](const auto&... shown) { emit_layout(format, vararg(shown)...); },
               std::tuple{field(args)...});
}

std::string joined(const std::vector<std::string>& items, const char* separator = " ") {
    if (items.empty()) return "-";
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

void print_facts(const elf::ElfInfo& info) {
    auto row = [](const char* key, const std::string& value) {
        emit("  %-20s %s\n", key, value.c_str());
    };
    row("class", info.is_64bit ? "ELF64" : "ELF32");
    row("machine", elf::machine_name(info.machine));
    row("type", type_name(info.type));
    row("soname", info.soname.empty() ? "-" : info.soname);
    row("needed", joined(info.needed));
    row("rpath", info.has_rpath ? joined(info.rpath, ":") : "-");
    row("runpath", info.has_runpath ? joined(info.runpath, ":") : "-");
    row("version needs", info.version_needs.empty() ? "-" : "");
    for (const auto& need : info.version_needs) {
        emit("    %-24s %s\n", need.file.c_str(), joined(need.versions).c_str());
    }
    row("version defs", joined(info.version_definitions));
    row("imported symbols", std::to_string(info.imported_symbols.size()));
    row("exported symbols", std::to_string(info.exported_symbols.size()));
    row("fatbin", info.has_fatbin ? "yes" : "no");
    if (info.has_fatbin) {
        row("sass", joined(arch_names(info.sass_archs, "sm_")));
        row("ptx", joined(arch_names(info.ptx_archs, "compute_")));
        for (const auto& source : info.fatbin_sources) {
            emit("    %-24s %zu containers: %s %s\n", source.section.c_str(), source.containers,
                 joined(arch_names(source.sass_archs, "sm_")).c_str(),
                 joined(arch_names(source.ptx_archs, "compute_")).c_str());
        }
    }
    row("dlopen candidates", joined(info.dlopen_candidates));
    if (!info.cuda_tools_release.empty()) row("CUDA tools release", info.cuda_tools_release);
    if (!info.cudnn_release.empty()) row("cuDNN release", info.cudnn_release);
}

void print_deep(const elf::DeepView& deep) {
    emit("deep (LIEF):\n  %s %s %s entry 0x%llx%s%s\n", deep.elf_class.c_str(),
         deep.file_type.c_str(), deep.machine.c_str(),
         static_cast<unsigned long long>(deep.entrypoint),
         deep.interpreter.empty() ? "" : " interpreter ", deep.interpreter.c_str());
    emit("  %zu dynamic symbols, %zu static symbols, %zu relocations\n", deep.dynamic_symbols,
         deep.static_symbols, deep.relocations);
    emit("  sections:\n    %-24s %-14s %18s %12s %12s\n", "name", "type", "address", "offset",
         "size");
    for (const auto& s : deep.sections) {
        emit("    %-24s %-14s 0x%016llx %12llu %12s\n", s.name.c_str(), s.type.c_str(),
             static_cast<unsigned long long>(s.address), static_cast<unsigned long long>(s.offset),
             human_size(s.size).c_str());
    }
    emit("  segments:\n    %-14s %-5s %12s %18s %12s %12s\n", "type", "flags", "offset", "address",
         "file size", "mem size");
    for (const auto& s : deep.segments) {
        emit("    %-14s %-5s %12llu 0x%016llx %12s %12s\n", s.type.c_str(), s.flags.c_str(),
             static_cast<unsigned long long>(s.offset), static_cast<unsigned long long>(s.address),
             human_size(s.file_size).c_str(), human_size(s.memory_size).c_str());
    }
}

int run_elf(const ElfArgs& args) {
    const std::string wanted = image::normalize_path(args.path, true);
    if (wanted.empty() || wanted == "/") fail_usage("PATH must name a file inside the image");
    const Found found = read_from_image(args, wanted);
    std::string why;
    const auto info = [&] {
        try {
            return elf::inspect(*found.bytes, &why);
        } catch (const LimitExceeded& error) {
            throw error.with_file(wanted);
        }
    }();
    if (!info) fail_input(wanted + ": not a readable ELF file: " + why);
    std::optional<elf::DeepView> deep;
    if (args.deep) {
        deep = elf::deep_inspect_bytes(*found.bytes, &why);
        if (!deep) fail_input(wanted + ": " + why);
    }

    if (args.format == "json") {
        nlohmann::json out = {{"schema_version", 1},
                              {"image", args.image.path},
                              {"path", wanted},
                              {"resolved_path", found.resolved},
                              {"size", found.bytes->size()},
                              {"elf", facts_json(*info)}};
        if (deep) out["deep"] = deep_json(*deep);
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    emit("%s", wanted.c_str());
    if (found.resolved != wanted) emit(" -> %s", found.resolved.c_str());
    emit(" (%s)\n", human_size(found.bytes->size()).c_str());
    print_facts(*info);
    if (deep) print_deep(*deep);
    return 0;
}

}  // namespace

void add_elf_command(CLI::App& app, Dispatch& dispatch) {
    auto args = std::make_shared<ElfArgs>();
    auto* command = app.add_subcommand("elf", "ELF facts of one file in an image");
    args->image.add_to(*command);
    command->add_option("PATH", args->path, "absolute path inside the image (links are followed)")
        ->required();
    command->add_flag("--deep", args->deep, "add LIEF's full view: sections, segments (slow)");
    add_format_option(*command, args->format, {"text", "json"});
    command->callback([args, &dispatch] { dispatch.run = [args] { return run_elf(*args); }; });
}

}  // namespace cuvet::cli
