#pragma once
// The output folder of `cuvet fleet scan`: one JSON file per image digest
// (docs/fleet.md, "Results"). A file is only ever seen whole: it is written under a temporary
// name and renamed, so a worker killed mid-write leaves a temporary file, never a half result,
// and a rerun skips exactly the digests whose result exists.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cuvet::fleet {

class ResultStore {
public:
    // Creates `dir` when missing; Error(io) naming it when it cannot.
    explicit ResultStore(std::filesystem::path dir);

    const std::filesystem::path& dir() const { return dir_; }
    // "<dir>/sha256-<hex>.json" for an image key ("sha256:<hex>").
    std::filesystem::path path_for(const std::string& key) const;
    bool has(const std::string& key) const;
    // Writes `result` as the key's file: a temporary file in the same folder, flushed to disk,
    // then renamed over the final name (atomic on one file system). Error(io) naming the file.
    void write(const std::string& key, const nlohmann::json& result) const;

private:
    std::filesystem::path dir_;
};

// Every result file of `dir` (sha256-*.json; temporary files are skipped), sorted by name.
// Error(input) naming the file on one that is not a fleet result.
std::vector<nlohmann::json> read_results(const std::filesystem::path& dir);

inline constexpr const char* result_schema = "cuvet-fleet-result";
inline constexpr int result_schema_version = 1;

}  // namespace cuvet::fleet
