# Class a (t03): `mim install` is OpenMMLab's pip wrapper; an unpinned MMCV through it is CUVL03.
# Expected: CUVL03 at line 5 (as for `pip install "mmcv>=2.0.1"`). main: no CUVL03, and a false CUVL07 (the mim build compiles).
FROM nvidia/cuda:12.8.1-cudnn-devel-ubuntu22.04
RUN pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128
RUN pip install -U openmim && mim install "mmcv>=2.0.1"
