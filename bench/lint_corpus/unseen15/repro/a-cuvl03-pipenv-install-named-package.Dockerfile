# Class a (t21): `pipenv install NAME` adds a named package to the Pipfile and installs it, like
# `pip install NAME`; with --skip-lock it is not even locked. cuvet reads every `pipenv install`
# (and poetry/pdm install) as an opaque lock install and never looks at the named packages, so an
# unpinned framework there goes unreported. Same for `poetry add NAME` / `pdm add NAME`.
# Expected: CUVL03 at line 9 (torch, no version), nothing at line 10 (torchvision pinned), and no
# CUVL14 (both packages are named). ec3955d: only CUVL14 at line 9, which calls torch unreadable.
FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN pip3 install pipenv==2024.0.1
RUN pipenv install --skip-lock torch
RUN pipenv install "torchvision==0.19.1"
