#include "stack_lock.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "cuvet/core/error.hpp"
#include "cuvet/core/text_input.hpp"
#include "cuvet/validate/validate.hpp"
#include "progress.hpp"

namespace cuvet::cli {

namespace {

constexpr std::uintmax_t max_lock_bytes = 64u << 20;  // a lock is kilobytes; this is not one

// An image file is a tar (docker save, an OCI layout tar: "ustar" at 257), or a
// compressed one (gzip, zstd, xz, bzip2): the image reader says what is wrong with those.
bool looks_like_archive(std::string_view head) {
    if (head.size() >= 262 && head.substr(257, 5) == "ustar") return true;
    for (std::string_view magic :
         {std::string_view("\x1f\x8b", 2), std::string_view("\x28\xb5\x2f\xfd", 4),
          std::string_view("\xfd"
                           "7zXZ",
                           5),
          std::string_view("BZh", 3)})
        if (head.substr(0, magic.size()) == magic) return true;
    return false;
}

}  // namespace

void StackArgs::add_stack_options(CLI::App& command) {
    command.add_option("--env", env,
                       "KEY=VALUE the container will run with, on top of the image's Env "
                       "(repeatable; as docker run -e)");
    add_runtime_start_option(command, nvidia_start);
    command.add_option("--rules-dir", rules_dir,
                       "directory whose *.json replace the built-in rules tables");
    command.add_flag("--no-progress", no_progress, "no progress on stderr");
    command.add_flag("--progress", progress,
                     "progress (layers and bytes read) on stderr even when it is not a terminal");
}

lock::Lock lock_of_image(const std::string& path, const StackArgs& args,
                         const rules::Database& db) {
    validate::Options options;
    options.open = args.image.open_options();
    options.workers = args.image.workers;
    options.env_overrides = args.env;
    options.nvidia_start = args.nvidia_start;
    auto layer_cache = args.image.layer_cache();
    options.layer_cache = layer_cache.get();
    std::unique_ptr<Progress> progress;
    if (args.progress || (!args.no_progress && isatty(STDERR_FILENO) != 0)) {
        progress = std::make_unique<Progress>("reading " + path, isatty(STDERR_FILENO) != 0);
        options.on_progress = progress->layer_callback();
    }
    auto scanned = validate::scan(path, options, db);
    if (progress) progress->finish();
    lock::FreezeContext context{path, scanned.analysis->info.config_digest};
    return lock::freeze(scanned.stack, db, context);
}

lock::Lock read_lock_file(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) fail_io(path + ": cannot open: " + ec.message());
    if (size > max_lock_bytes)
        fail_input(path + ": " + std::to_string(size) + " bytes is too large for a lock file");
    return lock::parse(read_text_input(path), path);
}

lock::Lock lock_of(const std::string& path, const StackArgs& args, const rules::Database& db) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        std::ifstream in(path, std::ios::binary);
        std::string head(512, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        if (lock::looks_like_lock(head)) return read_lock_file(path);
        if (!looks_like_archive(head))
            fail_input(path +
                       ": neither a cuvet lock file (what `cuvet freeze` writes: `lock-schema 1`, "
                       "or its JSON) "
                       "nor an image archive (a tar from docker save or an OCI layout)");
    }
    return lock_of_image(path, args, db);
}

}  // namespace cuvet::cli
