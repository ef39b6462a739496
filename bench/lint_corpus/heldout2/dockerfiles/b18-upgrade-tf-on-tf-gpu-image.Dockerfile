FROM tensorflow/tensorflow:2.4.1-gpu
RUN pip install -U pip && pip install -U tensorflow
