#include "image/layers/upper_dir.hpp"

#include "cuvet/core/error.hpp"

namespace cuvet::image {
namespace {

constexpr std::uint64_t fnv_offset = 14695981039346656037ull, fnv_prime = 1099511628211ull;

std::uint64_t hash_of(const std::string& path) {
    std::uint64_t hash = fnv_offset;
    for (unsigned char c : path) hash = (hash ^ c) * fnv_prime;
    return hash;
}

}  // namespace

void UpperDir::add(const std::string& path) {
    // One pass: the hash of each parent is the running hash where a '/' starts the next name.
    parents_.clear();
    std::uint64_t hash = fnv_offset;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '/' && i > 0) parents_.push_back(hash);
        hash = (hash ^ static_cast<unsigned char>(path[i])) * fnv_prime;
    }
    entries_.insert(hash);
    present_.insert(hash);
    // Deepest first: a parent already present has its own parents present too.
    for (auto it = parents_.rbegin(); it != parents_.rend() && present_.insert(*it).second; ++it) {
    }
}

void UpperDir::add_hard_link(const std::string& path, const std::string& target) {
    if (!entries_.count(hash_of(target)))
        fail_input(layer_ + ": hard link " + path + " names " + target +
                   ", which this layer does not hold before it; the overlay runtimes extract a "
                   "layer into its own directory and fail with \"no such file or directory\"");
    add(path);
}

void UpperDir::add_whiteout(const std::string& hidden_path) {
    const std::uint64_t hash = hash_of(hidden_path);
    if (present_.count(hash))
        fail_input(layer_ + ": the whiteout of " + hidden_path +
                   " follows that path in the same layer; the overlay runtimes cannot make the "
                   "whiteout there and fail with \"file exists\"");
    present_.insert(hash);
}

bool UpperDir::holds(const std::string& path) const { return present_.count(hash_of(path)) != 0; }

}  // namespace cuvet::image
