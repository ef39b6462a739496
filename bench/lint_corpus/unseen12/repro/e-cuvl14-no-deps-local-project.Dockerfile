# Class c (t03): the GPU stack is NVIDIA Warp, installed by name; the local project goes in with
# --no-deps, so it adds the project's own code and nothing else. main reports "the GPU framework
# comes from local project ." (CUVL14, line 12). warp-lang is not in rules/python_packages.json;
# a framework row for it (source: Warp's installation guide) silences this, but measured on the
# earlier corpora it also silences unseen11 h11's true CUVL14 (warp-lang==1.8.0 beside a uv.lock
# torch) and adds an unlabelled CUVL03 to unseen9 t28 ('warp-lang<1.5'), so it is not made here.
# Expected: no CUVL14 (a --no-deps install of the file's own project hides no framework).
FROM nvidia/cuda:12.6.1-runtime-ubuntu22.04
COPY pyproject.toml .
COPY python ./python
RUN pip install --no-cache-dir "warp-lang==1.9.0" numpy==2.1.0
RUN pip install --no-cache-dir --no-deps -e .
