# False CUVL03 (unseen10 t23): a non-framework conda package whose name states its CUDA build
# (magma-cuda118 from the pytorch channel: every release is a CUDA 11.8 build) cannot move to
# another CUDA, so "built for whatever CUDA that release targets" does not hold. Expected: no
# CUVL03 at line 7; the unpinned framework at line 8 (cupy-cuda11x) stays reported.
FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends wget
RUN conda install -y -c pytorch magma-cuda118
RUN pip install cupy-cuda11x
