#include "cuvet/dockerfile/shell.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "cuvet/core/error.hpp"

using namespace cuvet::dockerfile;
using Words = std::vector<std::string>;

namespace {

shell::Lookup vars(std::map<std::string, std::string> values) {
    return [values](std::string_view name) -> std::optional<std::string> {
        auto it = values.find(std::string(name));
        if (it == values.end()) return std::nullopt;
        return it->second;
    };
}

std::vector<Words> split(const std::string& script, std::map<std::string, std::string> v = {}) {
    std::vector<Words> out;
    for (auto& c : shell::split_commands(script, vars(v))) out.push_back(c.words);
    return out;
}

}  // namespace

TEST_CASE("Dockerfile word substitution", "[dockerfile][shell]") {
    auto lookup = vars({{"CUDA", "12.1"}, {"EMPTY", ""}});
    CHECK(shell::expand_word("nvidia/cuda:${CUDA}.1-runtime", lookup) ==
          "nvidia/cuda:12.1.1-runtime");
    CHECK(shell::expand_word("$CUDA", lookup) == "12.1");
    CHECK(shell::expand_word("${MISSING:-11.8}", lookup) == "11.8");
    CHECK(shell::expand_word("${EMPTY:-x}", lookup) == "x");
    CHECK(shell::expand_word("${EMPTY-x}", lookup) == "");
    CHECK(shell::expand_word("${CUDA:+set}", lookup) == "set");
    CHECK(shell::expand_word("${MISSING:+set}", lookup) == "");
    CHECK(shell::expand_word("${CUDA%.*}", lookup) == "12");
    CHECK(shell::expand_word("${CUDA/./}", lookup) == "121");
    CHECK(shell::expand_word("\"a b\"'$CUDA'", lookup) == "a b$CUDA");
    CHECK(shell::expand_word("$MISSING", lookup) == "");
    CHECK(shell::expand_word("$MISSING", lookup, {'\\', true}) == "$MISSING");
    CHECK_THROWS_AS(shell::expand_word("\"open", lookup), cuvet::Error);
    CHECK_THROWS_AS(shell::expand_word("${open", lookup), cuvet::Error);
}

TEST_CASE("RUN scripts split into simple commands", "[dockerfile][shell]") {
    CHECK(split("apt-get update && apt-get install -y libcudnn8 || true; echo done | tee x") ==
          std::vector<Words>{{"apt-get", "update"},
                             {"apt-get", "install", "-y", "libcudnn8"},
                             {"true"},
                             {"echo", "done"},
                             {"tee", "x"}});
    CHECK(split("(cd /x && pip install 'torch==2.1.0') > /dev/null 2>&1") ==
          std::vector<Words>{{"cd", "/x"}, {"pip", "install", "torch==2.1.0"}});
    CHECK(split("sh -c \"pip install torch && bash -lc 'conda install cudnn'\"") ==
          std::vector<Words>{{"pip", "install", "torch"}, {"conda", "install", "cudnn"}});
    CHECK(split("DEBIAN_FRONTEND=noninteractive sudo -E apt-get install -y cuda-compat-12-4") ==
          std::vector<Words>{{"apt-get", "install", "-y", "cuda-compat-12-4"}});
    CHECK(split("pip install \\\n  torch==$V # pinned\n", {{"V", "2.2.0"}}) ==
          std::vector<Words>{{"pip", "install", "torch==2.2.0"}});
    CHECK(split("pip install $PKGS", {{"PKGS", "torch torchvision"}}) ==
          std::vector<Words>{{"pip", "install", "torch", "torchvision"}});
    CHECK(split("pip install torch==$UNKNOWN") ==
          std::vector<Words>{{"pip", "install", "torch==$UNKNOWN"}});
    CHECK(split("cat <<EOF > /etc/x\nline\nEOF\nif true; then pip install jax; fi") ==
          std::vector<Words>{{"cat"}, {"true"}, {"pip", "install", "jax"}});
    CHECK(
        shell::split_argv({"/bin/bash", "-c", "pip install cupy-cuda12x"}, vars({})).at(0).words ==
        Words{"pip", "install", "cupy-cuda12x"});
    CHECK(split("printf $'it\\'s\\n' && pip install x") ==
          std::vector<Words>{{"printf", "it\\'s\\n"}, {"pip", "install", "x"}});
    CHECK_THROWS_AS(split("echo 'unbalanced"), cuvet::Error);
}
