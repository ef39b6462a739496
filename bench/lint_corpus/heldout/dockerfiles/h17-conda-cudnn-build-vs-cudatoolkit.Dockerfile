FROM continuumio/miniconda3:23.10.0-1
RUN conda install -y -c conda-forge cudatoolkit=11.8 cudnn=9.1.1.17=cuda12_0 && conda clean -afy
RUN pip install --no-cache-dir tensorflow==2.13.1
