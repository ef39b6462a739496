#pragma once
// Sorts a list and drops repeats: architecture lists, symbol names.
#include <algorithm>
#include <vector>

namespace cuvet {

template <typename T>
void sort_unique(std::vector<T>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

}  // namespace cuvet
