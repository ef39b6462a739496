#!/bin/bash
# Stop 23 on the GPU machine (run 10): the streamed ELF reader that holds at most elf-held
# (64 MiB) of a file. First bench/elf_facts: streamed facts == whole-file facts on every
# real library of the machine (torch, JAX, Triton, CuPy, the nvidia wheels, the CUDA
# toolkit, the dpkg cuDNN); then run 9's framework variants with this build's cuvet.
B=$(cd "$(dirname "$0")" && pwd)
chmod +x $B/cuvet $B/src/probe/cuvet-probe $B/elf_facts
SP=$(ls -d /opt/torch/.venv/lib/python3*/site-packages)
{
for d in $SP /usr/local/cuda/lib64; do
    echo "### elf_facts $d"
    LD_LIBRARY_PATH=$B/lib /usr/bin/time -f "wall %e s, max RSS %M KB" $B/elf_facts $d; echo "exit code $?"
done
mkdir -p /tmp/dpkg-cudnn && cp /usr/lib/x86_64-linux-gnu/libcudnn*.so.9.* /tmp/dpkg-cudnn/
echo "### elf_facts dpkg cuDNN"; LD_LIBRARY_PATH=$B/lib $B/elf_facts /tmp/dpkg-cudnn; echo "exit code $?"
} > $OUT/elf_facts.txt 2>&1
grep -E "###|ELF files|ElfStream|differ|exit code|wall" $OUT/elf_facts.txt
cat > $B/cuvet-wrap <<W
#!/bin/sh
LD_LIBRARY_PATH=$B/lib exec $B/cuvet "\$@"
W
chmod +x $B/cuvet-wrap
export HELDOUT="ld_so_preload_dpkg_cudnn ld_preload_pip_cudnn cufft_removed_toolkit nccl_removed cudnn_opt_ld_library_path dpkg_cudnn_binary_only wheel_cudnn_binary_only"
export NONE_VARIANTS="stale_cache_cudnn_opt healthy_all"
time CUVET=$B/cuvet-wrap OUT=$OUT bash testdata/gpu/framework_variants.sh > $OUT/console.log 2>&1
mkdir -p /tmp/rep && tar -C /tmp/rep -xzf $OUT/cuvet.tar.gz
python3 testdata/gpu/agreement.py $OUT/smoke.jsonl /tmp/rep/cuvet > $OUT/agreement.md 2>&1
tail -40 $OUT/agreement.md
