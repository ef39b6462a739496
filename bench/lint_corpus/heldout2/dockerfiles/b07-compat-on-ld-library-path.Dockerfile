FROM nvidia/cuda:12.6.3-runtime-ubuntu22.04
ENV LD_LIBRARY_PATH=/usr/local/cuda/compat:${LD_LIBRARY_PATH}
COPY bin/server /usr/local/bin/server
CMD ["server"]
