#!/bin/bash
# Stop 24 on the GPU machine (run 11): the tree after the typed loader rule, the live check on the
# open image and the typed hash-table headers. Part 1 (elf): bench/elf_facts, streamed facts ==
# whole-file facts on every real library of the machine. Part 2 (variants): run 10's framework
# variants, exit codes of whole images, the same held-out set.
B=${B:-$(pwd)/build-gpu-s24}
chmod +x $B/cuvet $B/src/probe/cuvet-probe $B/elf_facts
SP=$(ls -d /opt/torch/.venv/lib/python3*/site-packages)
if [ "$1" = elf ]; then
    mkdir -p /tmp/dpkg-cudnn && cp /usr/lib/x86_64-linux-gnu/libcudnn*.so.9.* /tmp/dpkg-cudnn/
    for d in $SP /usr/local/cuda/lib64 /tmp/dpkg-cudnn; do
        echo "### elf_facts $d"
        LD_LIBRARY_PATH=$B/lib /usr/bin/time -f "wall %e s, max RSS %M KB" $B/elf_facts $d
        echo "exit code $?"
    done > $OUT/elf_facts.txt 2>&1
    grep -E "###|ELF files|ElfStream|differ|exit code|wall|terminate|what" $OUT/elf_facts.txt
    exit 0
fi
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
