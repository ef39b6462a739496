FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends libnvidia-gl-535 nvidia-compute-utils-535
CMD ["nvidia-smi"]
