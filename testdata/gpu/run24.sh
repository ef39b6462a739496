#!/bin/bash
# Issue 24 on the GPU machine: framework_variants.sh (this branch's copy) with this branch's cuvet.
B=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$B/lib
chmod +x $B/cuvet $B/gpu/*.sh
$B/cuvet --version || { ldd $B/cuvet; exit 3; }
cat > $B/cuvet-wrap <<W
#!/bin/sh
LD_LIBRARY_PATH=$B/lib exec $B/cuvet "\$@"
W
chmod +x $B/cuvet-wrap
export HELDOUT="ld_so_preload_dpkg_cudnn ld_preload_pip_cudnn cufft_removed_toolkit nccl_removed cudnn_opt_ld_library_path"
export NONE_VARIANTS="stale_cache_cudnn_opt healthy_all"
export SMOKE=$PWD/src/sandbox/smoke
# framework_variants.sh sets LD_LIBRARY_PATH only through --env; keep ours out of the chroots
unset LD_LIBRARY_PATH
time CUVET=$B/cuvet-wrap OUT=$OUT bash $B/gpu/framework_variants.sh > $OUT/console.log 2>&1
mkdir -p /tmp/rep && tar -C /tmp/rep -xzf $OUT/cuvet.tar.gz
python3 $B/gpu/agreement.py $OUT/smoke.jsonl /tmp/rep/cuvet > $OUT/agreement.md 2>&1
tail -40 $OUT/agreement.md
