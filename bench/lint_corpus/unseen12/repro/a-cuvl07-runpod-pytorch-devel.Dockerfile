# Class a (t23): runpod/pytorch tags name torch, Python, CUDA and the flavour
# (<torch>-py<X.Y>-cuda<X.Y.Z>-<flavor>-<distro>); cuvet knows none of them, so the -devel
# final stage that compiles nothing goes unreported.
# Expected: CUVL07 at line 5. main: nothing.
FROM runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04
RUN pip install --no-cache-dir fastapi==0.109.0 transformers==4.36.2
CMD ["python3", "app.py"]
