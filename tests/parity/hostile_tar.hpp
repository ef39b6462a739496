#pragma once
// Tar members written byte by byte in every header dialect a layer or a docker archive may mix:
// ustar (with or without its prefix field), pax extended headers, GNU long names and GNU
// headers whose atime/ctime bytes Go may read as a ustar prefix. Nothing here predicts how a
// reader names a member: the runtime (podman) is the judge, cuvet must agree with it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "image/tar_blocks.hpp"

namespace cuvet::test::parity {

// How a member's name reaches the header.
enum class Naming {
    plain,              // the name field (names over 100 bytes fall back to pax_path)
    ustar_prefix,       // split at a '/' into the ustar prefix and name fields
    pax_path,           // a pax "path" record; the header's own name is a decoy
    gnu_long_name,      // a GNU 'L' member before a GNU header
    gnu_long_over_pax,  // a GNU 'L' member and a pax "path" decoy, both before the header
    gnu_text_atime,     // GNU magic, the atime bytes hold a decoy text (a prefix to Go)
    gnu_octal_times,    // GNU magic with octal atime and ctime: plain times
};

inline const char* to_string(Naming naming) {
    switch (naming) {
        case Naming::plain:
            return "plain";
        case Naming::ustar_prefix:
            return "ustar-prefix";
        case Naming::pax_path:
            return "pax-path";
        case Naming::gnu_long_name:
            return "gnu-long-name";
        case Naming::gnu_long_over_pax:
            return "gnu-long-name-over-pax";
        case Naming::gnu_text_atime:
            return "gnu-text-atime";
        case Naming::gnu_octal_times:
            return "gnu-octal-times";
    }
    return "?";
}

// One member as the generator means it; `naming` decides the bytes.
struct RawEntry {
    std::string name;
    char type = '0';
    std::string data;  // written after the header for every type but links and directories
    std::string link;
    std::uint32_t mode = 0644;
    Naming naming = Naming::plain;
    std::vector<std::pair<std::string, std::string>> extra_pax;  // records of its own pax header
};

namespace hostile_tar_detail {

inline std::string block_header(const std::string& name, const std::string& link,
                                std::uint64_t size, char type, std::uint32_t mode,
                                std::string_view magic, const std::string& prefix = "",
                                const std::string& atime_text = "") {
    std::string block = unsealed_header(name, link, size, type, mode, magic);
    block.replace(265, 4, "root");
    block.replace(297, 4, "root");
    if (!prefix.empty()) block.replace(345, std::min<std::size_t>(prefix.size(), 155), prefix);
    if (magic == gnu_magic) {
        if (atime_text.empty()) {
            put_octal(block, 345, 12, 1700000000);
            put_octal(block, 357, 12, 1700000000);
        } else {
            block.replace(345, std::min<std::size_t>(atime_text.size(), 12), atime_text);
        }
    }
    seal_header(block);
    return block;
}

inline std::string pax_member(const std::vector<std::pair<std::string, std::string>>& records) {
    std::string body;
    for (const auto& [key, value] : records) body += pax_record(key, value);
    return block_header("PaxHeaders/x", "", body.size(), 'x', 0644, ustar_magic) + padded(body);
}

inline std::string gnu_long_name_member(const std::string& name) {
    return block_header("././@LongLink", "", name.size() + 1, 'L', 0644, gnu_magic) +
           padded(name + '\0');
}

inline bool carries_data(char type) { return type != '1' && type != '2' && type != '5'; }

}  // namespace hostile_tar_detail

// The bytes of one member (its extension headers, header and data).
inline std::string encode_member(const RawEntry& entry) {
    using namespace hostile_tar_detail;
    const std::string data = carries_data(entry.type) ? entry.data : "";
    Naming naming = entry.naming;
    if (naming == Naming::plain && entry.name.size() > 100) naming = Naming::pax_path;
    std::string out;
    auto pax_records = entry.extra_pax;
    if (entry.link.size() > 100) pax_records.emplace_back("linkpath", entry.link);
    std::string header_name = entry.name;
    std::string prefix;
    std::string_view magic = ustar_magic;
    std::string atime_text;
    switch (naming) {
        case Naming::plain:
            break;
        case Naming::ustar_prefix: {
            auto slash = entry.name.find('/');
            while (slash != std::string::npos && entry.name.size() - slash - 1 > 100)
                slash = entry.name.find('/', slash + 1);
            if (slash != std::string::npos && slash > 0 && slash <= 155) {
                prefix = entry.name.substr(0, slash);
                header_name = entry.name.substr(slash + 1);
            }
            break;
        }
        case Naming::pax_path:
            pax_records.emplace_back("path", entry.name);
            header_name = "decoy/" + entry.name.substr(0, 80);
            break;
        case Naming::gnu_long_name:
            out += gnu_long_name_member(entry.name);
            magic = gnu_magic;
            break;
        case Naming::gnu_long_over_pax:
            out += gnu_long_name_member(entry.name);
            pax_records.emplace_back("path", "decoy/" + entry.name);
            magic = gnu_magic;
            break;
        case Naming::gnu_text_atime:
            magic = gnu_magic;
            atime_text = "decoy";
            break;
        case Naming::gnu_octal_times:
            magic = gnu_magic;
            break;
    }
    if (!pax_records.empty()) out += pax_member(pax_records);
    out += block_header(header_name, entry.link, data.size(), entry.type, entry.mode, magic, prefix,
                        atime_text);
    out += padded(data);
    return out;
}

inline std::string encode_tar(const std::vector<RawEntry>& entries) {
    std::string out;
    for (const auto& entry : entries) out += encode_member(entry);
    return out + std::string(1024, '\0');
}

}  // namespace cuvet::test::parity
