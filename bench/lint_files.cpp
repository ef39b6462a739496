// bench/lint_files: lints 1,000 generated Dockerfiles on one core and reports
// files per second (issue 5 target: > 2,000 files/s). The files vary the
// shapes that cost parse time: multi-stage builds, continuation lines,
// heredocs, long pip/conda/apt commands, ARG substitution.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"

namespace {

std::string generate(int i) {
    static const char* cudas[] = {"11.8.0", "12.1.1", "12.2.2", "12.4.1", "12.6.3"};
    static const char* flavors[] = {"cudnn8-runtime", "cudnn-runtime", "cudnn8-devel", "runtime",
                                    "cudnn-devel"};
    static const char* wheels[] = {"cu118", "cu121", "cu124", "cu126", "cpu"};
    const std::string cuda = cudas[i % 5];
    std::string text = "# syntax=docker/dockerfile:1\nARG CUDA=" + cuda + "\nARG PY=3.11\n";
    text +=
        "FROM nvidia/cuda:${CUDA}-" + std::string(flavors[(i / 5) % 5]) + "-ubuntu22.04 AS build\n";
    text += "ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1\n";
    text +=
        "RUN apt-get update && \\\n    apt-get install -y --no-install-recommends \\\n"
        "      python${PY} python3-pip git curl ca-certificates \\\n"
        "      libcudnn8" +
        std::string(i % 3 == 0 ? "=8.9.2.26-1+cuda12.1" : "") +
        " build-essential && \\\n    rm -rf /var/lib/apt/lists/*\n";
    text += "WORKDIR /src\nCOPY requirements.txt .\n";
    text += "RUN pip install --index-url https://download.pytorch.org/whl/" +
            std::string(wheels[i % 5]) + " \\\n    torch==2." + std::to_string(1 + i % 5) +
            ".0 torchvision torchaudio && \\\n"
            "    pip install -r requirements.txt \"jax[cuda12]==0.4.30\" cupy-cuda12x "
            "onnxruntime-gpu==1.19.2\n";
    if (i % 4 == 0) {
        text +=
            "RUN <<EOF bash\nset -euo pipefail\nconda install -y -c nvidia pytorch-cuda=12.1 "
            "cudnn\n"
            "python -c 'import torch; print(torch.cuda.is_available())'\nEOF\n";
    }
    text += "COPY . .\nRUN python setup.py bdist_wheel\n";
    text += "FROM nvidia/cuda:${CUDA}-runtime-ubuntu22.04\n";
    text += "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/nvidia/lib64\n";
    text += "COPY --from=build /src/dist/*.whl /tmp/\n";
    text += "RUN pip install /tmp/*.whl && apt-mark hold libcudnn8\n";
    text += "HEALTHCHECK --interval=30s CMD [\"python3\", \"-c\", \"import app\"]\n";
    text += "USER 1000\nENTRYPOINT [\"python3\", \"-m\", \"app\"]\nCMD [\"--port\", \"" +
            std::to_string(8000 + i) + "\"]\n";
    return text;
}

}  // namespace

int main() {
    using clock = std::chrono::steady_clock;
    const auto db = cuvet::rules::Database::load();
    std::vector<std::string> files;
    std::size_t bytes = 0;
    for (int i = 0; i < 1000; ++i) {
        files.push_back(generate(i));
        bytes += files.back().size();
    }
    std::size_t findings = 0;
    double best = 1e9;
    for (int round = 0; round < 5; ++round) {  // best of 5: the machine is shared
        auto start = clock::now();
        for (std::size_t i = 0; i < files.size(); ++i) {
            findings += cuvet::lint::lint_text(files[i], "Dockerfile." + std::to_string(i), db)
                            .findings.size();
        }
        best = std::min(best, std::chrono::duration<double>(clock::now() - start).count());
    }
    std::printf("lint_files: %zu Dockerfiles (%.1f KB), %zu findings per round\n", files.size(),
                bytes / 1024.0, findings / 5);
    std::printf("lint_files: best of 5: %.3f s = %.0f files/s on one core (target > 2000)\n", best,
                files.size() / best);
    return 0;
}
