// The classes the tenth unseen corpus's held-back part showed when it was scored once
// (bench/lint_corpus/unseen10/README.md): each as a snippet in the pattern of the public file,
// with the cases that must keep their verdict.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/dockerfile/facts.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL03 reports a version range that spans release lines",
          "[lint][lint-corpus10][CUVL03]") {
    // unseen10 h01: onnxruntime-gpu ">=1.21,<2"; ONNX Runtime's default CUDA changed within 1.x.
    const std::string base = "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN pip install \"onnxruntime-gpu>=1.21,<2\"\n", "CUVL03").size() == 1);
    CHECK(lint_ids(base + "RUN pip install \"tensorflow>=2.12,<2.16\"\n", "CUVL03").size() == 1);
    // A range inside one release line is as good as a pin.
    CHECK(lint_ids(base + "RUN pip install \"torch>=2.1,<2.2\"\n", "CUVL03").empty());
    CHECK(lint_ids(base + "RUN pip install \"torch>=2.1.0,<=2.1.2\"\n", "CUVL03").empty());
    CHECK(lint_ids(base + "RUN pip install \"jax[cuda12]>=0.4.20,<0.5\"\n", "CUVL03").empty());
}

TEST_CASE("a local version's first segment names the CUDA build", "[lint][lint-corpus10][CUVL14]") {
    // unseen10 h17: llama-cpp-python's CUDA wheel from a fork's release, 0.3.24+cu124.basic,
    // beside a requirements file: the GPU stack is visible.
    const std::string base =
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "COPY requirements.txt .\n"
        "RUN pip install -r requirements.txt\n";
    const std::string wheel =
        "https://github.com/JamePeng/llama-cpp-python/releases/download/"
        "v0.3.24-cu124-Basic-linux-20260208/llama_cpp_python-0.3.24+";
    CHECK(lint_ids(
              base + "RUN pip install \"" + wheel + "cu124.basic-cp311-cp311-linux_x86_64.whl\"\n",
              "CUVL14")
              .empty());
    // A local version that names no CUDA build leaves the stack hidden.
    CHECK(lint_ids(base + "RUN pip install \"" + wheel + "basic-cp311-cp311-linux_x86_64.whl\"\n",
                   "CUVL14")
              .size() == 1);
}

TEST_CASE("an unknown instruction after a spaced heredoc marker says why",
          "[lint][lint-corpus10][dockerfile]") {
    // unseen10 h29: `python3 - << 'EOF'` on a continuation line. BuildKit's marker is one word, so
    // the body's first line is the next instruction and the build fails there.
    const std::string text =
        "FROM ubuntu:24.04\n"
        "RUN echo a && \\\n"
        "    python3 - << 'EOF'\n"
        "import pathlib\n"
        "EOF\n";
    try {
        (void)lint_ids(text, "CUVL03");
        FAIL("the file was accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        CHECK_THAT(e.what(), Catch::Contains("unknown instruction 'import'") &&
                                 Catch::Contains("line 2 writes a heredoc as '<< WORD'"));
    }
    // Written as one word, it is a heredoc and the file lints.
    CHECK_NOTHROW(
        lint_ids("FROM ubuntu:24.04\nRUN echo a && \\\n    python3 - <<'EOF'\n"
                 "import pathlib\nEOF\n",
                 "CUVL03"));
}
