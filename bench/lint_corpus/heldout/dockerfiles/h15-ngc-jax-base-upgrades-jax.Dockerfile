FROM nvcr.io/nvidia/jax:24.04-py3
RUN pip install --upgrade "jax[cuda12]"
