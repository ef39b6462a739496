#!/bin/bash
# Issue 6 on the GPU machine: cuvet probe on a rootfs made from this machine's
# own PyTorch environment, then broken variants. Output goes to $OUT.
C=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
log() { echo; echo "### $*"; }
exec > >(tee "$O/gpu_run.log") 2>&1
set -x
nvidia-smi --query-gpu=name,driver_version --format=csv
ls -la /dev/nvidia* 2>&1 | head; ls /usr/local/nvidia/lib64 2>&1 | head -20
ldconfig -p | grep -E "libcuda\.|nvidia-ml|ptxjit|nvvm" 
cat /etc/os-release | head -2; ldd --version | head -1
V=/opt/torch/.venv; SP=$(ls -d $V/lib/python3*/site-packages); echo "SP=$SP"
readelf -d $SP/torch/lib/libtorch_cuda.so | grep -E "NEEDED.*(cudnn|cudart)|PATH"
ls $SP | grep -iE "^nvidia|^torch"
ls -la /lib/x86_64-linux-gnu/libcudnn.so* 2>&1 | head -4
ldd "$C/cuvet"; ldd "$C/cuvet-probe"
set +x
log "probe directly on the host (framework preload)"
"$C/cuvet-probe" --preload $SP/torch/lib/libtorch_cuda.so; echo "rc=$?"
log "probe directly on the host with the dpkg cuDNN"
"$C/cuvet-probe" --cudnn /lib/x86_64-linux-gnu/libcudnn.so.9; echo "rc=$?"
log "cuobjdump"
L=$SP/torch/lib/libc10_cuda.so
(which cuobjdump && cuobjdump --list-elf --list-ptx "$L") > "$O/cuobjdump_libc10_cuda.txt" 2>&1; head -5 "$O/cuobjdump_libc10_cuda.txt"; wc -l "$O/cuobjdump_libc10_cuda.txt"
sha256sum "$L" >> "$O/cuobjdump_libc10_cuda.txt"
log "build rootfs"
df -h /tmp | tail -1
R=/tmp/img; T0=$(date +%s%N)
"$C/make_torch_rootfs.sh" "$SP" "$R"
echo "rootfs built in $(( ($(date +%s%N) - T0) / 1000000 )) ms"; du -sh $R; find $R | wc -l; ls $R$L | head -50
P() { local name=$1; shift; log "cuvet probe: $name"; local t=$(date +%s%N); "$C/cuvet" probe --probe "$C/cuvet-probe" "$@" $R; echo "exit code $? after $(( ($(date +%s%N) - t) / 1000000 )) ms"; }
P good
"$C/cuvet" probe --probe "$C/cuvet-probe" -f json $R > "$O/probe_good.json"; echo "json exit $?"
P "LD_LIBRARY_PATH to the dpkg cuDNN 9.14" --env LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
mv $R$SP/nvidia/cudnn /tmp/cudnn-aside
P "pip cuDNN libraries removed (dist-info kept)"
rm -f $R/usr/lib/x86_64-linux-gnu/libcudnn*
P "all cuDNN removed"
P self-test --self-test
rm -rf $R /tmp/cudnn-aside
