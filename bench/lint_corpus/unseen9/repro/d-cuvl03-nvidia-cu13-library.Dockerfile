# Arguable CUVL03 (unseen9 t30): an nvidia-*-cu13 library wheel (NCCL, CUTLASS DSL libs)
# names its CUDA major; the message "built for whatever CUDA that release targets" does not
# hold. Labelled false here; cuDNN (nvidia-cudnn-cu13) stays in CUVL03's scope.
FROM nvidia/cuda:13.0.2-devel-ubuntu24.04
RUN pip install --force-reinstall nvidia-nccl-cu13
