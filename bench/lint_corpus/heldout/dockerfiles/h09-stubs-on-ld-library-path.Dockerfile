FROM nvidia/cuda:12.2.2-devel-ubuntu22.04
ENV CUDA_HOME=/usr/local/cuda
ENV LD_LIBRARY_PATH=${CUDA_HOME}/lib64:${CUDA_HOME}/lib64/stubs:${LD_LIBRARY_PATH}
COPY . /src
RUN make -C /src && cp /src/bin/app /usr/local/bin/
CMD ["app"]
