#pragma once
// `cuvet validate` as a library call: open → analyze (one scan) → Stack →
// checks → config (ignores, severity overrides) → findings. The CLI only
// parses options and renders.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/cache/shared_facts.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/config/config.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

struct Options {
    image::OpenOptions open;
    stack::Targets targets;  // already merged from the CLI and .cuvet.yaml
    unsigned workers = 0;
    // --env KEY=VALUE: the environment the container will run with, on top of
    // the image's Env (LD_LIBRARY_PATH set by a deployment changes what loads).
    std::vector<std::string> env_overrides;
    // --runtime-start: true (nvidia, the default) when the NVIDIA container toolkit starts the
    // container (ldconfig over the image's ld.so.conf, the driver injected); false (none): the
    // image's /etc/ld.so.cache as it is (loader::RuntimeStart).
    bool nvidia_start = true;
    std::function<void(std::size_t, std::size_t)> on_progress;  // files read of files selected
    // --dockerfile: findings about image files also point at the line that made their layer.
    std::string dockerfile_path;
    std::string dockerfile_text;
    cache::Store* layer_cache = nullptr;         // layers seen before are not read again
    cache::SharedFacts* shared_facts = nullptr;  // and those a fleet's workers read (fleet scan)
    // Runs after the checks, on the image this scan opened (validate --probe: the live check), and
    // adds to the result before the config applies (its findings are ignored and overridden as the
    // static ones are): the image is not opened again, nor its layers fetched again from a
    // registry where open.keep_fetched_blobs is set.
    std::function<void(const image::Image&, struct Result&)> live_check;
};

struct Result {
    image::ImageInfo info;
    std::vector<report::Finding> findings;  // after config::apply, unsorted
    std::vector<report::Finding> silenced;  // what config::apply dropped
    std::string summary;                    // checks::stack_summary: what the image runs
};

// What one scan of an image learned, as the checks see it. The Stack borrows the
// Analysis's ELF facts, so the Analysis lives on the heap and moves with it.
struct Scan {
    std::unique_ptr<image::Image> image;  // still open: what a live check reads again
    std::unique_ptr<inventory::Analysis> analysis;
    stack::Stack stack;
};

// open → analyze → Stack, with the entry script's exports and --env applied: what
// validate checks and what `cuvet freeze` records. Throws as validate does.
Scan scan(const std::string& image_path, const Options& options, const rules::Database& db);

// The checks, the config and the Dockerfile locations over a scan, then the live check: what
// validate does after scan(). Run again with other stack.targets, it judges the same scan for
// another target (`cuvet fleet scan`: one verdict per node pool, the image read once).
Result judge(Scan& scanned, const Options& options, const rules::Database& db,
             const config::Config& config);

// Throws cuvet::Error(input/io) on an unreadable image or Dockerfile,
// Error(usage) on a --gpu the rules database does not know.
Result validate(const std::string& image_path, const Options& options, const rules::Database& db,
                const config::Config& config);

// For each finding location naming an image file, adds the Dockerfile line
// that created the layer holding it (image history matched to the final stage).
void add_dockerfile_locations(std::vector<report::Finding>& findings, const image::FileTree& tree,
                              const image::ImageInfo& info, const std::string& dockerfile_path,
                              const std::string& dockerfile_text);

}  // namespace cuvet::validate
