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
R=/tmp/img; rm -rf $R; mkdir -p $R/usr/lib/x86_64-linux-gnu $R/usr/lib64 $R/usr/sbin $R/usr/bin $R/etc $R$SP
T0=$(date +%s%N)
ln -s usr/bin $R/bin; ln -s usr/sbin $R/sbin; ln -s usr/lib $R/lib; ln -s usr/lib64 $R/lib64
L=/usr/lib/x86_64-linux-gnu
cp -a $L/ld-linux-x86-64.so.2 $L/libc.so.6 $L/libm.so.6 $L/libdl.so.2 $L/librt.so.1 $L/libpthread.so.0 $L/libstdc++.so.6* $L/libgcc_s.so.1 $L/libz.so.1* $L/libcudnn* $R$L/
cp -a /usr/lib64/ld-linux-x86-64.so.2 $R/usr/lib64/
for f in $(ldd $SP/torch/lib/libtorch_cuda.so | awk '$3 ~ /^\/(usr\/)?lib\// {print $3}'); do [ -e $R$L/$(basename $f) ] || cp -L $f $R$L/; done
cp -a /usr/sbin/ldconfig* /sbin/ldconfig* $R/usr/sbin/ 2>/dev/null; cp -a /usr/bin/sh /usr/bin/dash $R/usr/bin/
cp -a /etc/ld.so.conf /etc/ld.so.conf.d $R/etc/
cp -a $SP/torch $SP/torch-*.dist-info $SP/nvidia $SP/nvidia_*.dist-info $R$SP/
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
