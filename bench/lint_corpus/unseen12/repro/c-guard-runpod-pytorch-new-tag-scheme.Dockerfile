# Guard for class a: runpod's newer tags read <image release>-cu<CUDA>-torch<torch>-<distro>.
# 1.0.3 is runpod's image release, not torch 1.0.3; torch is 2.9.1 (torch291), CUDA 12.8.1
# (cu1281). The runpod/pytorch row of this branch reads the first field as the torch release;
# nothing may be reported from it. Expected: nothing. main and this branch: nothing.
FROM runpod/pytorch:1.0.3-cu1281-torch291-ubuntu2404
RUN pip install --no-cache-dir --no-deps "torchvision==0.24.1"
