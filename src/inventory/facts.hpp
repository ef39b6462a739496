#pragma once
// Raw facts the inventory is merged from: one version read from one place,
// tied to the root of the copy it belongs to. Private to src/inventory (src/scan
// uses its path helpers).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/inventory/analysis.hpp"

namespace cuvet::inventory::detail {

// How much a kind of evidence is trusted when two disagree.
// A constant in the library binary outranks a header beside it (headers can be left
// behind by another install); package metadata names the same release more fully.
enum Rank {
    rank_verdef = 1,
    rank_file_name = 2,
    rank_version_file = 3,
    rank_elf_constant = 4,
    rank_package = 5
};

struct Fact {
    std::string component;
    std::string category;
    std::string version;
    std::string root;    // the copy it belongs to (merge key with component)
    std::string source;  // "pip", "conda", "dpkg", "toolkit", "files"
    int rank = rank_file_name;
    Evidence evidence;
    std::string file;  // a library file of the copy
    std::map<std::string, std::string> attributes;
};

using Facts = std::vector<Fact>;

void library_facts(const Analysis& analysis, Facts& out);       // libX.so.V file names
void package_facts(const Analysis& analysis, Facts& out);       // dist-info, dpkg, conda-meta
void version_file_facts(const Analysis& analysis, Facts& out);  // headers, version.json, *.py

// Whether package_facts reads a pip distribution ("torch", "jax_cuda12_plugin") or a conda
// package ("pytorch", "cudnn"): the scan keeps the metadata of those alone.
bool maps_pip_distribution(std::string_view dist);
bool maps_conda_package(std::string_view name);

// The copy a file belongs to: its dir without lib/include suffixes
// ("/x/nvidia/cudnn/lib" -> "/x/nvidia/cudnn", "/usr/lib/x86_64-linux-gnu" -> "/usr").
std::string root_of_dir(std::string_view dir);
std::string dir_of(std::string_view path);
std::string base_of(std::string_view path);

// Python assignments and dict items: `key = '1.2'`, `key: str = "1.2"`, `'key': '1.2'`.
std::string python_value(std::string_view text, std::string_view key);
// `#define NAME 9` (following one level of `#define NAME OTHER`).
std::string c_define(std::string_view text, std::string_view name);

}  // namespace cuvet::inventory::detail
