// One result file per digest, written atomically: what makes a rerun of a killed worker lose
// and repeat nothing.
#include "cuvet/fleet/result_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cuvet/core/error.hpp"

namespace cuvet::fleet {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view result_prefix = "sha256-";
constexpr std::string_view result_suffix = ".json";

void write_all(int fd, const std::string& bytes, const fs::path& path) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) fail_io(path.string() + ": cannot write: " + std::strerror(errno));
        done += static_cast<std::size_t>(wrote);
    }
}

bool is_result_name(const std::string& name) {
    return name.size() > result_prefix.size() + result_suffix.size() &&
           name.rfind(result_prefix, 0) == 0 &&
           name.compare(name.size() - result_suffix.size(), result_suffix.size(), result_suffix) ==
               0;
}

}  // namespace

ResultStore::ResultStore(fs::path dir) : dir_(std::move(dir)) {
    std::error_code error;
    fs::create_directories(dir_, error);
    if (error || !fs::is_directory(dir_))
        fail_io(dir_.string() + ": cannot create the results folder: " +
                (error ? error.message() : "not a directory"));
}

fs::path ResultStore::path_for(const std::string& key) const {
    // "sha256:<hex>" → "sha256-<hex>.json": no ':' in file names (CI artifact uploads refuse it).
    std::string name = key;
    std::replace(name.begin(), name.end(), ':', '-');
    return dir_ / (name + std::string(result_suffix));
}

bool ResultStore::has(const std::string& key) const {
    std::error_code error;
    return fs::is_regular_file(path_for(key), error);
}

void ResultStore::write(const std::string& key, const nlohmann::json& result) const {
    const fs::path final_path = path_for(key);
    // A dot name is never read as a result; the pid keeps two workers of one folder apart.
    const fs::path temporary =
        dir_ / ("." + final_path.filename().string() + ".tmp" + std::to_string(::getpid()));
    const std::string bytes =
        result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail_io(temporary.string() + ": cannot create: " + std::strerror(errno));
    try {
        write_all(fd, bytes, temporary);
    } catch (...) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    // Flushed before the rename: after a crash the final name holds all of it or nothing.
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced || ::rename(temporary.c_str(), final_path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temporary.c_str());
        fail_io(final_path.string() + ": cannot write the result: " + reason);
    }
}

std::vector<nlohmann::json> read_results(const fs::path& dir) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) fail_io(dir.string() + ": not a folder of fleet results");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, error))
        if (entry.is_regular_file() && is_result_name(entry.path().filename().string()))
            files.push_back(entry.path());
    if (error) fail_io(dir.string() + ": cannot list: " + error.message());
    std::sort(files.begin(), files.end());
    std::vector<nlohmann::json> results;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        auto result = nlohmann::json::parse(text.str(), nullptr, false);
        if (!in || !result.is_object() || result.value("schema", "") != result_schema)
            fail_input(file.string() + ": not a cuvet fleet result (schema " +
                       std::string(result_schema) + ")");
        results.push_back(std::move(result));
    }
    return results;
}

}  // namespace cuvet::fleet
