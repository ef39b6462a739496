#pragma once
// Seeded, deterministic hostile images: a small base image (what a CUDA image's layers hold in
// miniature) changed by 1-3 mutations drawn from the red team's classes (issue 33): header
// dialect mixes, long names, odd typeflags, hard links, whiteouts and opaque directories,
// writes through a lower layer's symlink, duplicate and NUL-bearing names, config keys that
// fold case or repeat, missing or odd entrypoints, and outer-tar naming tricks. A case is
// named by (seed, index): the same pair gives the same bytes on every machine.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "parity/hostile_image.hpp"

namespace cuvet::test::parity {

// splitmix64: std's distributions differ between standard libraries, a case must not.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[below(items.size())];
    }

private:
    std::uint64_t state_;
};

namespace generator_detail {

inline RawEntry entry_of(std::string name, char type, std::string data, std::string link,
                         std::uint32_t mode) {
    RawEntry entry;
    entry.name = std::move(name);
    entry.type = type;
    entry.data = std::move(data);
    entry.link = std::move(link);
    entry.mode = mode;
    return entry;
}
inline RawEntry reg(std::string name, std::string data, std::uint32_t mode = 0644) {
    return entry_of(std::move(name), '0', std::move(data), "", mode);
}
inline RawEntry folder(std::string name, std::uint32_t mode = 0755) {
    return entry_of(std::move(name), '5', "", "", mode);
}
inline RawEntry link(std::string name, std::string target, char type = '2') {
    return entry_of(std::move(name), type, "", std::move(target), 0777);
}
// Distinct sizes, so a file placed under another name shows in the compared views.
inline std::string payload(const std::string& name) { return "data of " + name + "\n"; }

inline HostileImage base_image() {
    HostileImage image;
    image.layers = {
        {folder("usr/"), folder("usr/lib/"), reg("usr/lib/libfoo.so.1", payload("libfoo"), 0755),
         link("usr/lib/libfoo.so", "libfoo.so.1"), folder("bin/"),
         reg("bin/app", "#!/bin/sh\necho app\n", 0755), link("lib", "usr/lib"), folder("etc/"),
         reg("etc/passwd", "root:x:0:0::/root:/bin/sh\n"), folder("opt/"), folder("opt/data/"),
         reg("opt/data/a", payload("a")), reg("opt/data/b", payload("bb"))},
        {folder("opt/"), reg("opt/new", payload("new"))},
    };
    image.run_config = {{"Env", R"(["PATH=/usr/bin:/bin","A=1"])"},
                        {"Entrypoint", R"(["/bin/app"])"},
                        {"Cmd", R"(["--help"])"},
                        {"WorkingDir", R"("/opt")"},
                        {"User", R"("root")"}};
    return image;
}

const std::vector<Naming> all_namings{
    Naming::plain,          Naming::ustar_prefix,      Naming::pax_path,
    Naming::gnu_long_name,  Naming::gnu_long_over_pax, Naming::gnu_text_atime,
    Naming::gnu_octal_times};

struct Picked {
    std::size_t layer;
    std::size_t entry;
};
inline Picked pick_entry(Rng& rng, const HostileImage& image) {
    std::size_t layer = rng.below(image.layers.size());
    while (image.layers[layer].empty()) layer = (layer + 1) % image.layers.size();
    return {layer, rng.below(image.layers[layer].size())};
}
inline std::string where(std::size_t layer) { return " in L" + std::to_string(layer); }
inline std::vector<RawEntry>& top_or_new(Rng& rng, HostileImage& image) {
    if (rng.below(2) == 0 || image.layers.empty()) image.layers.emplace_back();
    return image.layers.back();
}
inline bool has_entries(const HostileImage& image) {
    for (const auto& layer : image.layers)
        if (!layer.empty()) return true;
    return false;
}

using Mutation = std::function<std::string(Rng&, HostileImage&)>;

inline std::string rename_naming(Rng& rng, HostileImage& image) {
    if (!has_entries(image)) return "naming: no entries";
    auto at = pick_entry(rng, image);
    auto& entry = image.layers[at.layer][at.entry];
    entry.naming = rng.pick(all_namings);
    return std::string("naming ") + to_string(entry.naming) + " of " + entry.name + where(at.layer);
}

inline std::string long_path(Rng& rng, HostileImage& image) {
    std::string name = "opt/";
    for (int i = 0, n = 2 + static_cast<int>(rng.below(5)); i < n; ++i)
        name += std::string(20 + rng.below(40), static_cast<char>('a' + rng.below(26))) + "/";
    name += "file";
    auto naming = rng.pick(all_namings);
    auto& layer = top_or_new(rng, image);
    auto entry = reg(name, payload(name));
    entry.naming = naming;
    layer.push_back(entry);
    return "long path (" + std::to_string(name.size()) + " bytes) by " + to_string(naming) +
           where(image.layers.size() - 1);
}

inline std::string typeflag(Rng& rng, HostileImage& image) {
    const std::vector<char> types{'7', 'Z', 'A', '6', '\0', 'g', 'V'};
    char type = rng.pick(types);
    auto& layer = top_or_new(rng, image);
    RawEntry entry = reg("opt/typed", type == 'g' ? "18 path=opt/ghost\n" : payload("typed"));
    entry.type = type;
    layer.insert(layer.begin() + static_cast<std::ptrdiff_t>(rng.below(layer.size() + 1)), entry);
    return std::string("typeflag ") + (type == '\0' ? std::string("NUL") : std::string(1, type)) +
           where(image.layers.size() - 1);
}

inline std::string hard_link(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{"backward",   "forward", "to-dir",    "to-lower",
                                         "to-missing", "to-self", "to-symlink"};
    const auto& kind = rng.pick(kinds);
    auto& layer = top_or_new(rng, image);
    const std::string where_text = where(image.layers.size() - 1);
    if (kind == "backward") {
        layer.push_back(reg("opt/target", payload("target"), 0755));
        layer.push_back(link("opt/hard", "opt/target", '1'));
    } else if (kind == "forward") {
        layer.push_back(link("opt/hard", "opt/target", '1'));
        layer.push_back(reg("opt/target", payload("target")));
    } else if (kind == "to-dir") {
        layer.push_back(folder("opt/dir/"));
        layer.push_back(link("opt/hard", "opt/dir", '1'));
    } else if (kind == "to-lower") {
        layer.push_back(link("opt/hard", "usr/lib/libfoo.so.1", '1'));
    } else if (kind == "to-missing") {
        layer.push_back(link("opt/hard", "opt/nothing", '1'));
    } else if (kind == "to-self") {
        layer.push_back(link("opt/hard", "opt/hard", '1'));
    } else {
        layer.push_back(link("opt/sym", "../bin/app"));
        layer.push_back(link("opt/hard", "opt/sym", '1'));
    }
    layer.back().mode = rng.below(2) ? 0644 : 0755;
    return "hard link " + kind + where_text;
}

inline std::string whiteouts(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{
        "lower-file",   "lower-dir",      "missing",    "file-then-whiteout", "whiteout-then-file",
        "opaque-lower", "opaque-missing", "entrypoint", "through-symlink",    "opaque-then-files"};
    const auto& kind = rng.pick(kinds);
    image.layers.emplace_back();
    auto& layer = image.layers.back();
    if (kind == "lower-file") {
        layer.push_back(reg("opt/data/.wh.a", ""));
    } else if (kind == "lower-dir") {
        layer.push_back(reg("opt/.wh.data", ""));
    } else if (kind == "missing") {
        layer.push_back(reg("opt/.wh.never", ""));
    } else if (kind == "file-then-whiteout") {
        layer.push_back(reg("opt/data/c", payload("c")));
        layer.push_back(reg("opt/data/.wh.c", ""));
    } else if (kind == "whiteout-then-file") {
        layer.push_back(reg("opt/data/.wh.a", ""));
        layer.push_back(reg("opt/data/a", payload("a again")));
    } else if (kind == "opaque-lower") {
        layer.push_back(folder("opt/data/"));
        layer.push_back(reg("opt/data/.wh..wh..opq", ""));
    } else if (kind == "opaque-missing") {
        layer.push_back(reg("srv/.wh..wh..opq", ""));
    } else if (kind == "entrypoint") {
        layer.push_back(reg("bin/.wh.app", ""));
    } else if (kind == "through-symlink") {
        layer.push_back(reg("lib/.wh.libfoo.so.1", ""));
    } else {
        layer.push_back(reg("opt/data/.wh..wh..opq", ""));
        layer.push_back(reg("opt/data/z", payload("z")));
    }
    return "whiteout " + kind + where(image.layers.size() - 1);
}

inline std::string through_symlink(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{"lower-relative", "lower-absolute", "own-layer",
                                         "dir-over-link"};
    const auto& kind = rng.pick(kinds);
    image.layers.emplace_back();
    auto& layer = image.layers.back();
    if (kind == "lower-relative") {
        layer.push_back(reg("lib/x.so", payload("x")));
    } else if (kind == "lower-absolute") {
        image.layers.front().push_back(link("lib64", "/usr/lib"));
        layer.push_back(reg("lib64/y.so", payload("y")));
    } else if (kind == "own-layer") {
        layer.push_back(link("libexec", "usr/lib"));
        layer.push_back(reg("libexec/z.so", payload("z")));
    } else {
        layer.push_back(folder("lib/"));
        layer.push_back(reg("lib/w.so", payload("w")));
    }
    return "write through symlink " + kind + where(image.layers.size() - 1);
}

inline std::string duplicate(Rng& rng, HostileImage& image) {
    if (!has_entries(image)) return "duplicate: no entries";
    auto at = pick_entry(rng, image);
    auto& layer = image.layers[at.layer];
    RawEntry copy = layer[at.entry];
    const std::vector<std::string> kinds{"same", "other-data", "as-dir", "as-file", "as-symlink"};
    const auto& kind = rng.pick(kinds);
    if (kind == "other-data") {
        copy.type = '0';
        copy.data = payload("second " + copy.name);
    } else if (kind == "as-dir") {
        copy.type = '5';
    } else if (kind == "as-file") {
        copy.type = '0';
        copy.data = payload("file " + copy.name);
        while (!copy.name.empty() && copy.name.back() == '/') copy.name.pop_back();
    } else if (kind == "as-symlink") {
        copy.type = '2';
        copy.link = "/etc/passwd";
        while (!copy.name.empty() && copy.name.back() == '/') copy.name.pop_back();
    }
    std::string name = copy.name;
    layer.insert(layer.begin() +
                     static_cast<std::ptrdiff_t>(at.entry + 1 + rng.below(layer.size() - at.entry)),
                 copy);
    return "duplicate " + kind + " of " + name + where(at.layer);
}

inline std::string nul_name(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{"pax-path", "pax-linkpath", "header-name"};
    const auto& kind = rng.pick(kinds);
    auto& layer = top_or_new(rng, image);
    if (kind == "pax-path") {
        auto entry = reg("opt/nul", payload("nul"));
        entry.extra_pax.emplace_back("path", std::string("opt/nul\0.hidden", 15));
        layer.push_back(entry);
    } else if (kind == "pax-linkpath") {
        auto entry = link("opt/nul-link", "x");
        entry.extra_pax.emplace_back("linkpath", std::string("/etc/passwd\0x", 13));
        layer.push_back(entry);
    } else {
        layer.push_back(reg(std::string("opt/nul\0tail", 12), payload("nul")));
    }
    return "NUL in name " + kind + where(image.layers.size() - 1);
}

inline std::string replace(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{"file-over-dir", "dir-over-file", "symlink-over-dir",
                                         "file-over-symlink"};
    const auto& kind = rng.pick(kinds);
    image.layers.emplace_back();
    auto& layer = image.layers.back();
    if (kind == "file-over-dir") {
        layer.push_back(reg("opt/data", payload("flat")));
    } else if (kind == "dir-over-file") {
        layer.push_back(folder("bin/app/"));
        layer.push_back(reg("bin/app/inner", payload("inner")));
    } else if (kind == "symlink-over-dir") {
        layer.push_back(link("opt/data", "/usr/lib"));
    } else {
        layer.push_back(reg("usr/lib/libfoo.so", payload("real file")));
    }
    return "replace " + kind + where(image.layers.size() - 1);
}

inline std::string odd_names(Rng& rng, HostileImage& image) {
    const std::vector<std::string> names{
        "./opt/dot",  "opt//double",   "/opt/absolute", "../opt/escape",
        "opt/./here", "opt/../opt/up", "opt/trailing/", ".",
        "./",         "opt/data/a/",   "opt/sp ace\t\n"};
    const auto& name = rng.pick(names);
    auto& layer = top_or_new(rng, image);
    layer.push_back(reg(name, payload(name)));
    return "odd name '" + name + "' as a file" + where(image.layers.size() - 1);
}

inline std::string modes(Rng& rng, HostileImage& image) {
    if (!has_entries(image)) return "mode: no entries";
    const std::vector<std::uint32_t> values{04755, 02755, 01777, 0, 0600, 0444, 07777};
    auto at = pick_entry(rng, image);
    auto& entry = image.layers[at.layer][at.entry];
    entry.mode = rng.pick(values);
    char text[16];
    std::snprintf(text, sizeof text, "%04o", entry.mode);
    return std::string("mode ") + text + " on " + entry.name + where(at.layer);
}

inline std::string pax_records(Rng& rng, HostileImage& image) {
    if (!has_entries(image)) return "pax: no entries";
    const std::vector<std::pair<std::string, std::string>> records{
        {"mtime", "1700000000.5"},    {"uid", "99999"}, {"gname", "wheel"},
        {"SCHILY.xattr.user.k", "v"}, {"comment", "x"}, {"atime", "-1"}};
    auto at = pick_entry(rng, image);
    auto& entry = image.layers[at.layer][at.entry];
    const auto& record = rng.pick(records);
    entry.extra_pax.push_back(record);
    return "pax record " + record.first + " on " + entry.name + where(at.layer);
}

inline std::string layer_count(Rng& rng, HostileImage& image) {
    const std::vector<std::string> kinds{"zero-layers", "empty-layer", "only-dirs"};
    const auto& kind = rng.pick(kinds);
    if (kind == "zero-layers")
        image.layers.clear();
    else if (kind == "empty-layer")
        image.layers.emplace_back();
    else
        image.layers.push_back({folder("usr/"), folder("srv/")});
    return "layers " + kind;
}

const std::vector<std::string> run_fields{"Entrypoint", "Cmd", "Env", "User", "WorkingDir"};

inline std::string value_for(Rng& rng, const std::string& field) {
    if (field == "Env") {
        const std::vector<std::string> values{
            R"(["PATH=/opt/bin","B=2"])", R"(["NOEQUALS","=x","A=1","A=2"])",
            R"(["\u0041=escaped","LD_LIBRARY_PATH=/opt/data"])", R"([])"};
        return rng.pick(values);
    }
    if (field == "User" || field == "WorkingDir") {
        const std::vector<std::string> values{R"("1000")", R"("")", R"("\/srv")",
                                              R"("nobody:nogroup")", R"("\u00e9")"};
        return rng.pick(values);
    }
    const std::vector<std::string> values{R"(["/usr/lib/libfoo.so.1"])",
                                          R"([])",
                                          R"([""])",
                                          R"(["app"])",
                                          R"(["/opt"])",
                                          R"(["\/bin\/app","x"])",
                                          R"(["/bin/app","a\u0000b"])"};
    return rng.pick(values);
}

inline std::string key_variant(Rng& rng, const std::string& field) {
    std::string lower, upper;
    for (char c : field) {
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    // \u escapes in a key, and Go's folds of K (KELVIN SIGN) and s (LONG S).
    std::string escaped = "\\u00" + [&] {
        char text[3];
        std::snprintf(text, sizeof text, "%02x", static_cast<unsigned char>(field[0]));
        return std::string(text);
    }() + field.substr(1);
    std::string folded = lower;
    if (auto s = folded.find('s'); s != std::string::npos) folded.replace(s, 1, "\xC5\xBF");
    const std::vector<std::string> variants{field, lower, upper, escaped, folded};
    return rng.pick(variants);
}

inline std::string config_keys(Rng& rng, HostileImage& image) {
    const auto& field = rng.pick(run_fields);
    const std::vector<std::string> kinds{"variant", "null", "remove", "wrong-type"};
    const auto& kind = rng.pick(kinds);
    auto& config = image.run_config;
    std::string key = key_variant(rng, field);
    if (kind == "variant") {
        std::string value = value_for(rng, field);
        config.insert(config.begin() + static_cast<std::ptrdiff_t>(rng.below(config.size() + 1)),
                      {key, value});
        return "config key '" + key + "' = " + value;
    }
    if (kind == "null") {
        config.push_back({key, "null"});
        return "config key '" + key + "' = null";
    }
    if (kind == "remove") {
        std::erase_if(config, [&](const ConfigMember& m) { return m.key == field; });
        return "config without " + field;
    }
    config.push_back({key, field == "User" || field == "WorkingDir" ? "[]" : R"("/bin/app")"});
    return "config key '" + key + "' of the wrong type";
}

inline std::string outer_naming(Rng& rng, HostileImage& image) {
    image.outer_namings.clear();
    for (int i = 0, n = 1 + static_cast<int>(rng.below(4)); i < n; ++i)
        image.outer_namings.push_back(rng.pick(all_namings));
    std::string text = "outer namings";
    for (auto naming : image.outer_namings) text += std::string(" ") + to_string(naming);
    return text;
}

inline std::string outer_duplicate(Rng& rng, HostileImage& image) {
    const std::vector<std::string> members{"manifest.json", "config.json", "index.json"};
    image.duplicated_member = rng.pick(members);
    image.duplicate_keeps_bytes = rng.below(2) == 0;
    image.duplicate_bytes = image.duplicated_member == "manifest.json" ? "[]" : "{}";
    return "outer " + image.duplicated_member + " twice" +
           (image.duplicate_keeps_bytes ? " (same bytes)" : " (other bytes)");
}

inline std::string outer_layout(Rng&, HostileImage& image) {
    image.stale_oci_index = true;
    return "outer Docker 25 layout, index.json naming the config as first written";
}

const std::vector<Mutation> all_mutations{
    rename_naming, long_path,   typeflag,    hard_link,    whiteouts,       through_symlink,
    duplicate,     nul_name,    replace,     odd_names,    modes,           pax_records,
    layer_count,   config_keys, config_keys, outer_naming, outer_duplicate, outer_layout};

}  // namespace generator_detail

// Case `index` of the campaign `seed`: the base image and 1-3 mutations.
inline HostileImage generate_case(std::uint64_t seed, std::uint64_t index) {
    using namespace generator_detail;
    Rng rng(seed * 0x100000001b3ULL ^ index);
    HostileImage image = base_image();
    for (std::size_t i = 0, n = 1 + rng.below(3); i < n; ++i)
        image.mutations.push_back(rng.pick(all_mutations)(rng, image));
    return image;
}

}  // namespace cuvet::test::parity
