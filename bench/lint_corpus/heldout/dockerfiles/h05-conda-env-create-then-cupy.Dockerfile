FROM continuumio/miniconda3:24.7.1-0
WORKDIR /opt/app
COPY environment.gpu.yml .
RUN conda env create -f environment.gpu.yml && conda clean -afy
SHELL ["conda", "run", "-n", "gpu", "/bin/bash", "-c"]
RUN conda run -n gpu pip install --no-cache-dir cupy-cuda12x
COPY src/ src/
ENTRYPOINT ["conda", "run", "--no-capture-output", "-n", "gpu", "python", "src/main.py"]
