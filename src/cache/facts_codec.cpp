#include "facts_codec.hpp"

namespace cuvet::cache::detail {
namespace {

// A new field in either struct must be written below and bump
// cache::format_version; these sizes are the reminder.
static_assert(sizeof(image::FileEntry) == 96,
              "FileEntry changed: update facts_codec and cache::format_version");
static_assert(sizeof(elf::ElfInfo) == 408,
              "ElfInfo changed: update facts_codec and cache::format_version");

void encode_entry(Writer& out, const image::FileEntry& e) {
    out.str(e.path);
    out.u64(static_cast<std::uint64_t>(e.type));
    out.u64(e.mode);
    out.u64(e.size);
    out.str(e.link_target);
    out.u64(e.uid);
    out.u64(e.gid);
}

image::FileEntry decode_entry(Reader& in) {
    image::FileEntry e;
    e.path = in.str();
    auto type = in.u64();
    if (type > static_cast<std::uint64_t>(image::FileType::device))
        throw DecodeError("bad file type");
    e.type = static_cast<image::FileType>(type);
    e.mode = static_cast<std::uint32_t>(in.u64());
    e.size = in.u64();
    e.link_target = in.str();
    e.uid = static_cast<std::uint32_t>(in.u64());
    e.gid = static_cast<std::uint32_t>(in.u64());
    return e;
}

void encode_elf(Writer& out, const elf::ElfInfo& info) {
    out.u64(info.is_64bit);
    out.u64(info.machine);
    out.u64(info.type);
    out.str(info.soname);
    out.strings(info.needed);
    out.strings(info.rpath);
    out.strings(info.runpath);
    out.u64(info.has_rpath);
    out.u64(info.has_runpath);
    out.u64(info.version_needs.size());
    for (const auto& need : info.version_needs) {
        out.str(need.file);
        out.strings(need.versions);
    }
    out.strings(info.version_definitions);
    out.strings(info.imported_symbols);
    out.strings(info.exported_symbols);
    out.strings(info.weak_imported_symbols);
    out.ints(info.sass_archs);
    out.ints(info.ptx_archs);
    out.u64(info.has_fatbin);
    out.u64(info.fatbin_sources.size());
    for (const auto& source : info.fatbin_sources) {
        out.str(source.section);
        out.ints(source.sass_archs);
        out.ints(source.ptx_archs);
        out.u64(source.containers);
    }
    out.strings(info.dlopen_candidates);
    out.str(info.cuda_tools_release);
    out.str(info.cudnn_release);
}

elf::ElfInfo decode_elf(Reader& in) {
    elf::ElfInfo info;
    info.is_64bit = in.u64() != 0;
    info.machine = static_cast<std::uint16_t>(in.u64());
    info.type = static_cast<std::uint16_t>(in.u64());
    info.soname = in.str();
    info.needed = in.strings();
    info.rpath = in.strings();
    info.runpath = in.strings();
    info.has_rpath = in.u64() != 0;
    info.has_runpath = in.u64() != 0;
    info.version_needs.resize(in.count());
    for (auto& need : info.version_needs) {
        need.file = in.str();
        need.versions = in.strings();
    }
    info.version_definitions = in.strings();
    info.imported_symbols = in.strings();
    info.exported_symbols = in.strings();
    info.weak_imported_symbols = in.strings();
    info.sass_archs = in.ints();
    info.ptx_archs = in.ints();
    info.has_fatbin = in.u64() != 0;
    info.fatbin_sources.resize(in.count());
    for (auto& source : info.fatbin_sources) {
        source.section = in.str();
        source.sass_archs = in.ints();
        source.ptx_archs = in.ints();
        source.containers = static_cast<std::size_t>(in.u64());
    }
    info.dlopen_candidates = in.strings();
    info.cuda_tools_release = in.str();
    info.cudnn_release = in.str();
    return info;
}

}  // namespace

void encode_facts(Writer& out, const LayerFacts& facts) {
    const auto& listing = facts.listing;
    out.u64(listing.entries.size());
    for (const auto& e : listing.entries) encode_entry(out, e);
    out.strings(listing.whiteouts);
    out.strings(listing.opaque_dirs);
    out.u64(facts.elfs.size());
    for (const auto& [path, info] : facts.elfs) {
        out.str(path);
        encode_elf(out, info);
    }
    out.u64(facts.not_elf.size());
    for (const auto& path : facts.not_elf) out.str(path);
    out.u64(facts.texts.size());
    for (const auto& [path, text] : facts.texts) {
        out.str(path);
        out.str(text);
    }
}

LayerFacts decode_facts(Reader& in) {
    LayerFacts facts;
    auto& listing = facts.listing;
    listing.entries.resize(in.count());
    for (auto& e : listing.entries) e = decode_entry(in);
    listing.whiteouts = in.strings();
    listing.opaque_dirs = in.strings();
    // Written from sorted maps: the hint keeps the inserts linear.
    for (std::size_t n = in.count(); n > 0; --n) {
        std::string path = in.str();
        facts.elfs.emplace_hint(facts.elfs.end(), std::move(path), decode_elf(in));
    }
    for (std::size_t n = in.count(); n > 0; --n)
        facts.not_elf.emplace_hint(facts.not_elf.end(), in.str());
    for (std::size_t n = in.count(); n > 0; --n) {
        std::string path = in.str();
        facts.texts.emplace_hint(facts.texts.end(), std::move(path), in.str());
    }
    if (!in.done()) throw DecodeError("trailing bytes");
    return facts;
}

}  // namespace cuvet::cache::detail
