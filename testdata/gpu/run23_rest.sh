#!/bin/bash
# The 5 held-out variants run 10's first call had no time left for (ONLY=…).
B=$(cd "$(dirname "$0")" && pwd)
cat > $B/cuvet-wrap <<W
#!/bin/sh
LD_LIBRARY_PATH=$B/lib exec $B/cuvet "\$@"
W
chmod +x $B/cuvet-wrap $B/cuvet $B/src/probe/cuvet-probe
export HELDOUT="ld_so_preload_dpkg_cudnn ld_preload_pip_cudnn cufft_removed_toolkit nccl_removed cudnn_opt_ld_library_path dpkg_cudnn_binary_only wheel_cudnn_binary_only"
export ONLY="cufft_removed_toolkit nccl_removed cudnn_opt_ld_library_path dpkg_cudnn_binary_only wheel_cudnn_binary_only"
time CUVET=$B/cuvet-wrap OUT=$OUT bash testdata/gpu/framework_variants.sh > $OUT/console.log 2>&1
tail -5 $OUT/console.log
