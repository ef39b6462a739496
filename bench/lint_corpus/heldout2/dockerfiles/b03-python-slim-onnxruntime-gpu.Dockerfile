FROM python:3.10-slim
RUN pip install --no-cache-dir "torch==2.2.2" --index-url https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir onnxruntime-gpu==1.18.0
COPY export.py serve.py /app/
