// Issue 25, the two miss classes the second unseen corpus's held-back part left
// (bench/lint_corpus/unseen2/README.md), each as a snippet in the pattern of the
// public file that showed it, with the cases that must stay silent.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("pip behind a project manager run command is read as pip", "[lint][facts][CUVL03]") {
    // unseen2 h06 (Xyntopia/pydoxtools Dockerfile.nvidia): the builder stage's venv is
    // copied into the final stage; torch comes from `poetry run pip install`.
    auto found = lint_ids(
        "FROM nvidia/cuda:11.7.1-cudnn8-runtime-ubuntu22.04 as python-base\n"
        "FROM python-base as builder-base\n"
        "RUN pip install poetry\n"
        "RUN --mount=type=cache,target=/root/.cache/\\\n"
        "    poetry run pip install torch pytorch-lightning torchmetrics==0.9.3\n"
        "FROM python-base as production\n"
        "COPY --from=builder-base /project/.venv /project/.venv\n",
        "CUVL03");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 4);
    CHECK(found[0].message.find("torch") != std::string::npos);
    // The same in every wrapper that runs a command inside its environment.
    for (const std::string run :
         {"pipenv run pip install onnxruntime-gpu",
          "pdm run -p . python -m pip install cupy-cuda12x",
          "hatch run default:pip install onnxruntime-gpu", "rye run pip install onnxruntime-gpu",
          "uv run --with rich pip install onnxruntime-gpu",
          "poetry run python3 -m pip install onnxruntime-gpu"}) {
        INFO(run);
        CHECK(lint_ids("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\nRUN " + run + "\n",
                       "CUVL03")
                  .size() == 1);
    }
    // Pinned stays pinned, and a script run by the wrapper installs nothing visible.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
                   "RUN poetry run pip install onnxruntime-gpu==1.19.2\n"
                   "RUN poetry run download_spacy_model && pipenv run python train.py\n",
                   "CUVL03")
              .empty());
}

TEST_CASE("CUVL10 on a CUDA base without cuDNN for packages that load the system cuDNN",
          "[lint][CUVL10]") {
    // unseen2 h15 (nomadkaraoke/python-audio-separator Dockerfile.cuda12): onnxruntime-gpu's
    // CUDA provider links libcudnn, which the -devel tag without `cudnn` does not carry.
    const std::string head =
        "FROM nvidia/cuda:12.3.1-devel-ubuntu22.04\n"
        "RUN apt-get update && apt-get install -y ffmpeg python3 python3-pip\n";
    auto found = lint_ids(head +
                              "RUN pip install onnxruntime-gpu --extra-index-url "
                              "https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/"
                              "onnxruntime-cuda-12/pypi/simple/\n",
                          "CUVL10");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 3);
    CHECK(found[0].message.find("without cuDNN") != std::string::npos);
    CHECK(found[0].fix.find("nvidia/cuda:12.3.1-cudnn-devel") != std::string::npos);
    // TensorFlow (without [and-cuda]) and Paddle dlopen cuDNN too.
    CHECK(lint_ids("FROM nvidia/cuda:11.2.2-runtime-ubuntu20.04\n"
                   "RUN pip install tensorflow==2.11.0\n",
                   "CUVL10")
              .size() == 1);
    CHECK(lint_ids("FROM nvidia/cuda:10.0-runtime-ubuntu18.04\n"
                   "RUN pip install tensorflow-gpu==1.15.0\n",
                   "CUVL10")
              .size() == 1);
    // tensorflow 1.x is the CPU package; an unpinned Paddle (3.x) pulls nvidia-cudnn in.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-runtime-ubuntu18.04\n"
                   "RUN pip install tensorflow==1.15.0 paddlepaddle-gpu\n",
                   "CUVL10")
              .empty());
    // Silent where something brings cuDNN, or the package does not need it.
    for (const std::string other :
         {"RUN apt-get install -y libcudnn9-cuda-12=9.1.0.70-1\n",
          "RUN pip install nvidia-cudnn-cu12==9.1.0.70\n", "RUN pip install torch==2.4.0\n",
          "RUN pip install 'onnxruntime-gpu[cuda,cudnn]'\n",
          "COPY --from=nvidia/cuda:12.3.1-cudnn-runtime-ubuntu22.04 /usr/lib/x86_64-linux-gnu/"
          "libcudnn* /usr/lib/x86_64-linux-gnu/\n",
          "RUN pip install -r requirements.txt\n"}) {
        INFO(other);
        CHECK(
            lint_ids(head + "RUN pip install onnxruntime-gpu==1.19.2\n" + other, "CUVL10").empty());
    }
    CHECK(lint_ids(head + "RUN pip install cupy-cuda12x==13.3.0\n", "CUVL10").empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.3.1-cudnn9-runtime-ubuntu22.04\n"
                   "RUN pip install onnxruntime-gpu==1.19.2\n",
                   "CUVL10")
              .empty());
}

TEST_CASE("CUVL14 counts a project install.sh or install.py as an unreadable install",
          "[lint][CUVL14]") {
    // unseen3 t18 (Creaide-AI/facefusion-docker Dockerfile.cuda): onnxruntime comes from the
    // project's own installer.
    auto found = lint_ids(
        "FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04\n"
        "RUN apt-get update && apt-get install pip -y\n"
        "COPY . /facefusion\n"
        "RUN python install.py --onnxruntime cuda-11.8 --skip-venv\n",
        "CUVL14");
    REQUIRE(found.size() == 1);
    CHECK(found[0].locations.at(0).line == 4);
    CHECK(found[0].message.find("install script install.py") != std::string::npos);
    // unseen3 t02 (AlHering/modular-voice-assistant gpu.Dockerfile): the same through bash.
    CHECK(lint_ids("FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n"
                   "ADD ./ modular-voice-assistant/\n"
                   "RUN /bin/bash install.sh\n",
                   "CUVL14")
              .size() == 1);
    // An installer that names what it installs, and a downloaded one piped to a shell, are not.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\n"
                   "RUN git clone https://github.com/kaldi-asr/kaldi && cd kaldi/tools && "
                   "./extras/install_mkl.sh && make -j4\n"
                   "RUN curl -LsSf https://astral.sh/uv/install.sh | sh\n",
                   "CUVL14")
              .empty());
}

TEST_CASE("CUVL05 reads a pre-release tensorflow-gpu pin as a pin", "[lint][CUVL05]") {
    // unseen3 h11 (dmitryduev/braai gpu.Dockerfile, found after its held-back score):
    // tensorflow-gpu==2.0.0b0 is the GPU build of a 2.0 beta, not an unpinned install.
    CHECK(lint_ids("FROM nvidia/cuda:10.0-devel-ubuntu18.04\n"
                   "RUN pip install tensorflow-gpu==2.0.0b0\n",
                   "CUVL05")
              .empty());
    auto found = lint_ids(
        "FROM nvidia/cuda:11.2.2-runtime-ubuntu20.04\n"
        "RUN pip install tensorflow-gpu==2.5.0rc1\n",
        "CUVL05");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("tensorflow-gpu 2.5.0 is a retired name") != std::string::npos);
}
