#!/bin/bash
# Stop 22 on the GPU machine (run 9): framework_variants.sh with the merged tree's static cuvet,
# carried in build-gpu-final/ (cuvet stripped, libisal.so.2 in lib/).
B=$(cd "$(dirname "$0")" && pwd)
chmod +x $B/cuvet
$B/cuvet --version || { ldd $B/cuvet; exit 3; }
cat > $B/cuvet-wrap <<W
#!/bin/sh
LD_LIBRARY_PATH=$B/lib exec $B/cuvet "\$@"
W
chmod +x $B/cuvet-wrap
# cuDNN's release constant in the real libraries (pip 9.19 and dpkg 9.14)
mkdir -p /tmp/c1/opt/a /tmp/c1/opt/b
cp $(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/lib/libcudnn_graph.so.9 | head -1) /tmp/c1/opt/a/
cp $(ls /usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9.* | head -1) /tmp/c1/opt/b/
for f in /tmp/c1/opt/*/*; do echo "${f#/tmp/c1}: $($B/cuvet-wrap elf /tmp/c1 ${f#/tmp/c1} | grep -i 'cudnn release')"; done > $OUT/cudnn_release.txt 2>&1
cat $OUT/cudnn_release.txt
export HELDOUT="ld_so_preload_dpkg_cudnn ld_preload_pip_cudnn cufft_removed_toolkit nccl_removed cudnn_opt_ld_library_path dpkg_cudnn_binary_only wheel_cudnn_binary_only"
export NONE_VARIANTS="stale_cache_cudnn_opt healthy_all"
time CUVET=$B/cuvet-wrap OUT=$OUT bash testdata/gpu/framework_variants.sh > $OUT/console.log 2>&1
mkdir -p /tmp/rep && tar -C /tmp/rep -xzf $OUT/cuvet.tar.gz
python3 testdata/gpu/agreement.py $OUT/smoke.jsonl /tmp/rep/cuvet > $OUT/agreement.md 2>&1
tail -70 $OUT/agreement.md
