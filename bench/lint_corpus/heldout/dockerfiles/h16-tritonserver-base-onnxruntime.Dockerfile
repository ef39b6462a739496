FROM nvcr.io/nvidia/tritonserver:24.08-py3
RUN pip3 install --no-cache-dir onnxruntime-gpu
COPY model_repository /models
CMD ["tritonserver", "--model-repository=/models"]
