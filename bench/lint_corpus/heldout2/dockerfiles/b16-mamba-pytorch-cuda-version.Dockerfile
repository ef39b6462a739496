FROM condaforge/miniforge3:24.3.0-0
RUN mamba install -y -c conda-forge "pytorch=2.3" "cuda-version=12.1" && mamba clean -afy
