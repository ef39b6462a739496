#pragma once
// Real NVIDIA ptxas programs on the test machine: the toolkit's
// (/usr/local/cuda/bin/ptxas) and any named in CUVET_TEST_PTXAS (colon
// separated, e.g. Debian's nvidia-cuda-toolkit 11.8 /usr/bin/ptxas). Tests
// that need one skip cleanly when there is none.
#include <filesystem>
#include <vector>

namespace cuvet::test {

std::vector<std::filesystem::path> real_ptxas_programs();

}  // namespace cuvet::test
