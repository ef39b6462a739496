#!/bin/bash
# Stop 23 on the GPU machine, last call: bench/elf_facts of the final tree (the stream that fails
# closed on any read of bytes it did not keep, typed ELF structs) on every real library again.
B=$(cd "$(dirname "$0")" && pwd)
chmod +x $B/elf_facts
SP=$(ls -d /opt/torch/.venv/lib/python3*/site-packages)
mkdir -p /tmp/dpkg-cudnn && cp /usr/lib/x86_64-linux-gnu/libcudnn*.so.9.* /tmp/dpkg-cudnn/
for d in $SP /usr/local/cuda/lib64 /tmp/dpkg-cudnn; do
    echo "### elf_facts $d"
    LD_LIBRARY_PATH=$B/lib /usr/bin/time -f "wall %e s, max RSS %M KB" $B/elf_facts $d; echo "exit code $?"
done > $OUT/elf_facts_final.txt 2>&1
grep -E "###|ELF files|ElfStream|differ|exit code|wall|terminate|what" $OUT/elf_facts_final.txt
