# Missed CUVL01 (unseen9 t31, the unseen8 h28 class): a flash_attn wheel built for torch 2.6
# (+cu12torch2.6) installed beside torch 2.7.1: its C++ extension does not load.
FROM nvcr.io/nvidia/pytorch:24.08-py3
RUN pip install torch==2.7.1 torchvision==0.22.1
RUN pip install https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp310-cp310-linux_x86_64.whl
