# Class c (t17): a plain base whose only GPU sign is the requirements file's name (cu129).
# Expected: CUVL14 (info) at line 5. main: silent.
FROM ubuntu:24.04
COPY . .
RUN pip install -r requirements-pyg-pt28-cu129.txt
