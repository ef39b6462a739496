# Missed CUVL01 (unseen9 t16, the unseen8 h19 class): unpinned torch from the cu121 index,
# where every build is CUDA 12.1, on a CUDA 13 base. Expected: CUVL01 (besides CUVL03).
FROM nvcr.io/nvidia/tensorrt:25.10-py3
RUN pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121
