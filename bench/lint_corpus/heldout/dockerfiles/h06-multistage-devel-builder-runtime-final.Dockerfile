ARG CUDA_VERSION=12.4.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS builder
RUN apt-get update && apt-get install -y cmake g++ && rm -rf /var/lib/apt/lists/*
COPY . /src
RUN cmake -S /src -B /build -DCMAKE_CUDA_ARCHITECTURES="80;90" && cmake --build /build -j
FROM nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu22.04
COPY --from=builder /build/bin/solver /usr/local/bin/solver
ENTRYPOINT ["solver"]
