FROM python:3.11
RUN pip install --extra-index-url https://download.pytorch.org/whl/cu121 torch==2.3.1 torchvision==0.18.1
