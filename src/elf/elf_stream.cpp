#include "cuvet/elf/elf_stream.hpp"

#include <algorithm>
#include <cstring>

#include "cuvet/core/scan_limits.hpp"
#include "cuvet/elf/dlopen_strings.hpp"
#include "cuvet/elf/tool_release.hpp"
#include "elf/elf_file.hpp"
#include "elf/fatbin_scanner.hpp"
#include "elf/inspect_scanned.hpp"

namespace cuvet::elf {
namespace {

using detail::Range;

std::uint64_t end_of(const Range& range) { return range.offset + range.size; }

// Library names, compiler banners and cuDNN's release constant in the bytes
// that go by, with their
// offsets: a big file's .rodata is not kept, and where it is only the
// section headers at the end of the file say. Each run of bytes between
// holes is searched as elf::inspect searches the pieces of .rodata.
class TextScan {
public:
    detail::Unkept hits;

    void feed(std::string_view bytes, std::uint64_t offset) {
        if (run_.empty()) run_offset_ = offset;
        run_.append(bytes);
        if (run_.size() >= flush_at) scan(false);
    }
    void break_run() {
        scan(true);
        run_.clear();
    }

private:
    // A name is decided once this many bytes follow it (a name is at most 96
    // bytes, a release is read from release_window bytes); `back` bytes before the
    // undecided ones are kept to see where a name starts.
    static constexpr std::size_t reserve = 256, back = 128, flush_at = 1 << 20;
    static constexpr std::size_t max_hits = 16384;

    void scan(bool final) {
        if (run_.empty()) return;
        const std::size_t limit = final ? run_.size() : run_.size() - reserve;
        auto fresh = [&](std::size_t at) { return at < limit && run_offset_ + at >= done_; };
        if (hits.dlopen.size() < max_hits) {
            for_each_dlopen_candidate(run_, [&](std::size_t start, std::string_view name) {
                if (fresh(start))
                    hits.dlopen.push_back({run_offset_ + start, name.size(), std::string(name)});
                return hits.dlopen.size() < max_hits;
            });
        }
        record(cuda_tools_banner, hits.releases, fresh, cuda_tools_release_at);
        record(cudnn_release_prefix, hits.cudnn_releases, fresh, cudnn_release_at);
        record_section_names(fresh);
        done_ = run_offset_ + limit;
        if (final) return;
        const std::size_t drop = limit - back;
        run_.erase(0, drop);
        run_offset_ += drop;
    }

    // Each occurrence of `prefix` that `read_at` reads a release from, with
    // the bytes after it: where .rodata ends is known only at the end, and a
    // release is read from what lies inside it (elf/inspect.cpp).
    template <class Fresh>
    void record(std::string_view prefix, std::vector<detail::Unkept::Hit>& found, Fresh fresh,
                std::string (*read_at)(std::string_view)) {
        for (std::size_t at = 0; found.size() < max_hits;) {
            const void* hit =
                memmem(run_.data() + at, run_.size() - at, prefix.data(), prefix.size());
            if (!hit) break;
            at = static_cast<std::size_t>(static_cast<const char*>(hit) - run_.data());
            const std::string_view window = std::string_view(run_).substr(at, release_window);
            // Fewer bytes never read a release where these read none.
            if (fresh(at) && !read_at(window).empty())
                found.push_back({run_offset_ + at, prefix.size(), std::string(window)});
            ++at;
        }
    }

    // Linkers put .shstrtab anywhere (lld: before .strtab, which can be
    // 80 MB), so where the names went by is recorded, not the table.
    template <class Fresh>
    void record_section_names(Fresh fresh) {
        auto note = [&](std::string_view name) {
            for (std::size_t at = 0; hits.section_names.size() < max_hits;) {
                const void* hit =
                    memmem(run_.data() + at, run_.size() - at, name.data(), name.size() + 1);
                if (!hit) break;
                at = static_cast<std::size_t>(static_cast<const char*>(hit) - run_.data());
                if (fresh(at)) hits.section_names.push_back({run_offset_ + at, name});
                ++at;
            }
        };
        // The views' NULs follow them: they are string literals.
        note(detail::rodata_section);
        for (std::string_view name : detail::fatbin_sections) note(name);
    }

    std::string run_;
    std::uint64_t run_offset_ = 0, done_ = 0;
};

using detail::pt_dynamic;
using detail::pt_load;
using detail::sht_nobits;

// The sections whose bytes the dynamic-linking facts come from.
bool table_type(std::uint32_t type) {
    using namespace detail;
    return type == sht_hash || type == sht_dynamic || type == sht_dynsym || type == sht_gnu_hash ||
           type == sht_gnu_verdef || type == sht_gnu_verneed;
}

}  // namespace

// Bytes are looked at once, in order, and most are not kept: what is kept is
// the start of the file (headers, and where linkers put the dynamic symbol,
// string and version tables), the header tables the ELF header locates, and
// the tables the program headers, section headers and dynamic table locate
// further on; everything else (code, data, GPU payloads) is scanned on the fly
// (fatbin containers, library names, compiler banners) and forgotten. A table
// that lay in bytes already forgotten when it was located (before the headers
// that locate it and past the start) makes finish() throw LimitExceeded
// (elf-held): facts are never silently partial.
struct ElfStream::State {
    static constexpr std::uint64_t max_zero_fill = 64 * 1024;
    // Header tables announced with an overflowed count are kept up to this.
    static constexpr std::uint64_t max_table = 4 << 20;
    static constexpr std::size_t max_wanted = 64, max_loads = 256;
    static constexpr std::uint64_t elf_header = 64;
    static constexpr std::uint64_t hole_cost = sizeof(Range) + sizeof(std::uint64_t);

    State(std::uint64_t size, ScratchBuffer& buffer)
        : buffer(buffer),
          scanner(size, false),
          size(size),
          held_limit(scan_limits().elf_held),
          prefix(std::max<std::uint64_t>(held_limit / 4, 4096)),
          text_on(size > prefix || held_limit < 4 * prefix) {}

    ScratchBuffer& buffer;
    detail::FatbinScanner scanner;
    std::uint64_t size;  // announced; bytes past it are ignored
    std::uint64_t held_limit, prefix;
    bool text_on;  // a file no longer than the prefix is kept whole
    TextScan text;

    std::uint64_t end = 0;         // file bytes [0, end) have arrived
    std::uint64_t skip_until = 0;  // a payload being skipped ends here
    // Bytes [window_offset, end) (when not skipping), for the fatbin scanner;
    // those before `committed` are settled and may be dropped.
    std::string window;
    std::uint64_t window_offset = 0;
    // File bytes [0, committed) are each either kept (in `buffer`, in file
    // order) or in a hole: kept + cut == committed.
    std::uint64_t committed = 0, kept = 0, cut = 0;
    std::vector<Range> holes;               // payloads, sparse gaps, bytes not kept; merged
    std::vector<std::uint64_t> cut_before;  // bytes of the holes before hole i
    std::vector<Range> dropped;             // bytes seen but not kept (merged across holes)
    bool kept_since_drop = true;
    std::vector<Range> wanted;  // past the prefix: keep these

    // What the headers said.
    bool is64 = true, header_done = false, phdrs_pending = false, shdrs_pending = false,
         dynamic_pending = false;
    std::uint16_t phentsize = 0, shentsize = 0, shnum = 0;
    std::uint32_t shstrndx = 0;
    Range phdrs, shdrs, dynamic;
    std::vector<detail::Segment> loads;

    detail::ScanWindow view() const { return {window, window_offset}; }

    void feed(const char* data, std::uint64_t length) {
        while (length > 0) {
            std::uint64_t n = length;
            if (end < skip_until) {
                n = std::min(n, skip_until - end);
                end += n;
            } else {
                // Copy up to the scanner's next decision, so that it names a
                // payload before any of it is copied.
                const std::uint64_t stop = scanner.next_stop(view());
                if (stop > end) n = std::min(n, stop - end);
                window.append(data, static_cast<std::size_t>(n));
                end += n;
                rescan();
            }
            data += n;
            length -= n;
        }
    }

    void rescan() {
        while (end >= skip_until) {
            auto skip = scanner.advance(view());
            if (!skip) break;
            commit_to(skip->offset);
            if (text_on) text.break_run();
            add_hole(*skip);
            skip_until = committed = end_of(*skip);
            // Bytes after the payload may have arrived in the same step.
            if (end > skip_until) {
                window.erase(0, static_cast<std::size_t>(skip_until - window_offset));
            } else {
                window.clear();
            }
            window_offset = skip_until;
        }
        if (end < skip_until) return;
        commit_to(std::min(scanner.settled(), end));
        const std::uint64_t settled = committed - window_offset;
        if (committed == end || (settled > (64u << 10) && settled > window.size() / 2)) {
            window.erase(0, static_cast<std::size_t>(settled));
            window_offset = committed;
        }
    }

    // A sparse entry's hole [end, offset): small ones read as the zeros they
    // are; larger ones are never materialised but cut out like skipped GPU
    // code, so a 64 GiB sparse file costs what its data blocks cost.
    void jump_to(std::uint64_t offset) {
        if (offset - end <= max_zero_fill) {
            static const std::string zeros(max_zero_fill, '\0');
            feed(zeros.data(), offset - end);
            return;
        }
        if (end < skip_until) {
            end = std::min(offset, skip_until);  // inside a payload being skipped anyway
            if (end == offset) return;
        } else {
            commit_to(end);  // the scanner does not look back across a gap
        }
        if (text_on) text.break_run();
        scanner.skip_gap(Range{end, offset - end});
        add_hole(Range{end, offset - end});
        end = skip_until = committed = window_offset = offset;
        window.clear();
    }

    // Settles the window's bytes up to `target`: searched for strings, then
    // kept or dropped.
    void commit_to(std::uint64_t target) {
        if (target <= committed) return;
        const char* data = window.data() + (committed - window_offset);
        std::uint64_t length = target - committed;
        if (text_on) text.feed(std::string_view(data, static_cast<std::size_t>(length)), committed);
        while (length > 0) {
            auto [keep, n] = decide(committed);
            n = std::min(n, length);
            // Past the budget nothing more is kept; finish() says whether a
            // table was among what was dropped.
            if (keep && kept + n + holes.size() * hole_cost > held_limit) keep = false;
            if (keep) {
                buffer.reserve(static_cast<std::size_t>(kept + n));
                std::memcpy(buffer.data() + kept, data, static_cast<std::size_t>(n));
                kept += n;
                kept_since_drop = true;
            } else {
                add_hole(Range{committed, n});
                if (!dropped.empty() && !kept_since_drop)
                    dropped.back().size = committed + n - dropped.back().offset;
                else
                    dropped.push_back(Range{committed, n});
                kept_since_drop = false;
            }
            committed += n;
            data += n;
            length -= n;
            // Pieces end where a header table ends, so that what it locates
            // is known before the bytes after it are decided.
            parse();
        }
    }

    // Whether the bytes at `offset` are kept, and for how many bytes that holds.
    std::pair<bool, std::uint64_t> decide(std::uint64_t offset) const {
        if (offset < elf_header) return {true, elf_header - offset};
        if (offset < prefix) return {true, prefix - offset};
        bool keep = false;
        std::uint64_t next = UINT64_MAX;
        for (const Range& range : wanted) {
            if (offset >= range.offset && offset < end_of(range)) {
                keep = true;
                next = std::min(next, end_of(range));
            } else if (range.offset > offset) {
                next = std::min(next, range.offset);
            }
        }
        return {keep, next - offset};
    }

    void add_hole(Range hole) {
        if (hole.size == 0) return;
        if (!holes.empty() && end_of(holes.back()) == hole.offset) {
            holes.back().size += hole.size;
        } else {
            cut_before.push_back(cut);
            holes.push_back(hole);
        }
        cut += hole.size;
    }

    void want(Range range) {
        if (range.size == 0 || range.offset >= size || wanted.size() >= max_wanted) return;
        range.size = std::min(range.size, size - range.offset);
        if (end_of(range) > committed) wanted.push_back(range);
    }

    // The kept bytes of file range [offset, offset + length); nullptr when
    // any of them was not kept (or has not arrived).
    const char* at(std::uint64_t offset, std::uint64_t length) const {
        if (length == 0 || offset > committed || length > committed - offset) return nullptr;
        auto it =
            std::upper_bound(holes.begin(), holes.end(), offset,
                             [](std::uint64_t at, const Range& hole) { return at < end_of(hole); });
        if (it != holes.end() && it->offset < offset + length) return nullptr;
        const std::uint64_t before =
            it == holes.end() ? cut : cut_before[static_cast<std::size_t>(it - holes.begin())];
        return buffer.data() + (offset - before);
    }

    template <class Dyn>
    static std::pair<std::uint64_t, std::uint64_t> dynamic_entry(const char* p) {
        const auto entry = detail::copy_as<Dyn>(p);
        return {entry.tag, entry.value};
    }

    void parse() {
        if (!header_done && committed >= std::min(elf_header, size)) parse_header();
        if (phdrs_pending && committed >= end_of(phdrs)) parse_phdrs();
        if (shdrs_pending && committed >= end_of(shdrs)) parse_shdrs();
        if (dynamic_pending && committed >= end_of(dynamic)) parse_dynamic();
    }

    void parse_header() {
        header_done = true;
        const char* h = at(0, sizeof(detail::Elf32Ehdr));
        if (!h ||
            std::memcmp(h,
                        "\x7f"
                        "ELF",
                        4) != 0 ||
            (h[4] != 1 && h[4] != 2) || h[5] != 1)
            return;
        is64 = h[4] == 2;
        if (is64) {
            if (const char* h64 = at(0, sizeof(detail::Elf64Ehdr)))
                locate_tables(detail::copy_as<detail::Elf64Ehdr>(h64));
        } else {
            locate_tables(detail::copy_as<detail::Elf32Ehdr>(h));
        }
    }

    template <class Ehdr>
    void locate_tables(const Ehdr& header) {
        const std::uint64_t phoff = header.phoff, shoff = header.shoff, phnum = header.phnum;
        phentsize = header.phentsize;
        shentsize = header.shentsize;
        shnum = header.shnum;
        shstrndx = header.shstrndx;
        if (phoff != 0 && phnum != 0 &&
            phentsize >= (is64 ? sizeof(detail::Elf64Phdr) : sizeof(detail::Elf32Phdr)) &&
            phoff < size) {
            phdrs = Range{phoff, std::min({phnum * phentsize, max_table, size - phoff})};
            want(phdrs);
            phdrs_pending = true;
        }
        if (shoff != 0 &&
            shentsize >= (is64 ? sizeof(detail::Elf64Shdr) : sizeof(detail::Elf32Shdr)) &&
            shoff < size) {
            const std::uint64_t count = shnum != 0 ? shnum : max_table / shentsize;
            shdrs = Range{shoff, std::min({count * shentsize, max_table, size - shoff})};
            want(shdrs);
            shdrs_pending = true;
        }
    }

    detail::Segment segment(const char* p) const {
        return is64 ? detail::to_segment(detail::copy_as<detail::Elf64Phdr>(p))
                    : detail::to_segment(detail::copy_as<detail::Elf32Phdr>(p));
    }
    detail::Section section(const char* p) const {
        return is64 ? detail::to_section(detail::copy_as<detail::Elf64Shdr>(p))
                    : detail::to_section(detail::copy_as<detail::Elf32Shdr>(p));
    }

    void parse_phdrs() {
        phdrs_pending = false;
        const char* table = at(phdrs.offset, phdrs.size);
        if (!table) return;
        for (std::uint64_t i = 0; i < phdrs.size / phentsize; ++i) {
            const detail::Segment p = segment(table + i * phentsize);
            if (p.type == pt_load && loads.size() < max_loads) loads.push_back(p);
            // ld.so takes the last PT_DYNAMIC (each one overwrites l_ld in dl-load.c).
            if (p.type == pt_dynamic && p.offset < size) {
                dynamic = Range{p.offset, std::min(p.filesz, size - p.offset)};
                want(dynamic);
                dynamic_pending = dynamic.size > 0;
            }
        }
    }

    void parse_shdrs() {
        shdrs_pending = false;
        const char* table = at(shdrs.offset, shdrs.size);
        if (!table) return;
        std::uint64_t count = shdrs.size / shentsize;
        // Section 0 carries the real counts when they overflow the header fields.
        const detail::Section zero = section(table);
        if (shnum == 0) count = std::min(count, zero.size);
        if (shstrndx == 0xffff) shstrndx = zero.link;
        auto range_of = [&](std::uint64_t index) -> std::optional<Range> {
            if (index >= count) return std::nullopt;
            const detail::Section s = section(table + index * shentsize);
            if (s.type == sht_nobits) return std::nullopt;
            return Range{s.offset, s.size};
        };
        if (auto names = range_of(shstrndx)) want(*names);
        for (std::uint64_t i = 0; i < count; ++i) {
            const detail::Section s = section(table + i * shentsize);
            if (s.type == sht_nobits || !table_type(s.type)) continue;
            want(Range{s.offset, s.size});
            if (auto linked = range_of(s.link)) want(*linked);
        }
    }

    // Where the loader would find `address` in the file, and how many bytes
    // of its segment follow.
    std::optional<Range> file_range(std::uint64_t address) const {
        for (const detail::Segment& load : loads) {
            if (address < load.vaddr || address - load.vaddr >= load.filesz) continue;
            const std::uint64_t delta = address - load.vaddr;
            if (load.offset + delta < load.offset) continue;
            return Range{load.offset + delta, load.filesz - delta};
        }
        return std::nullopt;
    }

    void parse_dynamic() {
        dynamic_pending = false;
        const char* table = at(dynamic.offset, dynamic.size);
        if (!table) return;
        const std::uint64_t entry = is64 ? sizeof(detail::Elf64Dyn) : sizeof(detail::Elf32Dyn);
        std::optional<std::uint64_t> strtab, strsz;
        for (std::uint64_t i = 0; i + entry <= dynamic.size; i += entry) {
            const auto [tag, value] = is64 ? dynamic_entry<detail::Elf64Dyn>(table + i)
                                           : dynamic_entry<detail::Elf32Dyn>(table + i);
            if (tag == detail::dt_null) break;
            if (tag == detail::dt_strtab)
                strtab = value;
            else if (tag == detail::dt_strsz)
                strsz = value;
            // The tables that run to their segment's end (no size in the dynamic section).
            else if (tag == detail::dt_symtab || tag == detail::dt_hash ||
                     tag == detail::dt_gnu_hash || tag == detail::dt_verdef ||
                     tag == detail::dt_verneed)
                if (auto range = file_range(value)) want(*range);
        }
        if (strtab) {
            if (auto range = file_range(*strtab)) {
                if (strsz) range->size = std::min(range->size, *strsz);
                want(*range);
            }
        }
    }
};

ElfStream::ElfStream(std::uint64_t size, ScratchBuffer& buffer)
    : state_(std::make_unique<State>(size, buffer)) {}

ElfStream::~ElfStream() = default;

void ElfStream::write(std::string_view block, std::uint64_t offset) {
    State& s = *state_;
    offset = std::min(offset, s.size);
    if (s.end < offset) s.jump_to(offset);
    s.feed(block.data(), std::min<std::uint64_t>(block.size(), s.size - offset));
}

std::optional<ElfInfo> ElfStream::finish(std::string* why_not) {
    State& s = *state_;
    if (s.end >= s.skip_until) s.commit_to(s.end);
    if (s.text_on) {
        s.text.break_run();
        auto& names = s.text.hits.section_names;
        std::sort(names.begin(), names.end(),
                  [](const detail::KnownString& a, const detail::KnownString& b) {
                      return a.offset < b.offset;
                  });
    }
    // A file cut short may end inside a hole: only what arrived is cut out.
    while (!s.holes.empty() && s.holes.back().offset >= s.end) {
        s.cut -= s.holes.back().size;
        s.holes.pop_back();
        s.cut_before.pop_back();
    }
    if (!s.holes.empty() && end_of(s.holes.back()) > s.end) {
        s.cut -= end_of(s.holes.back()) - s.end;
        s.holes.back().size = s.end - s.holes.back().offset;
    }
    auto scan = s.scanner.finish();
    scan.holes = std::move(s.holes);
    s.buffer.reserve(1);
    const std::string_view stored(s.buffer.data(), static_cast<std::size_t>(s.kept));
    if (s.dropped.empty()) return detail::inspect_scanned(stored, scan, true, why_not);
    s.text.hits.ranges = std::move(s.dropped);
    try {
        return detail::inspect_scanned(stored, scan, true, why_not, &s.text.hits);
    } catch (const detail::UnkeptRead&) {
        // Facts are never silently partial: a table that lay in bytes not kept
        // (before the headers that locate it, or past the budget) stops the scan.
        const std::string first = s.prefix >= (1u << 20) ? std::to_string(s.prefix >> 20) + " MiB"
                                                         : std::to_string(s.prefix >> 10) + " KiB";
        throw LimitExceeded(
            "ELF tables lie in bytes a streamed read does not keep (past the first " + first +
                ", before the headers that locate them)",
            "elf-held");
    }
}

}  // namespace cuvet::elf
