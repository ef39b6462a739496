#!/bin/bash
# make_framework_rootfs.sh ROOTFS: a root file system made from the GPU
# machine's own Python environment: the venv (torch, jax + the cuda13
# plugin/pjrt, cupy, onnxruntime, the nvidia wheels), its interpreter and
# standard library, the system libraries all of them need, and the dpkg cuDNN
# (as make_torch_rootfs.sh), hard-linked where the file system allows.
# No driver: the runner injects it as the NVIDIA container toolkit does.
set -e
R=$1; V=${VENV:-/opt/torch/.venv}
PY=$(readlink -f $V/bin/python3); BASE=$($PY -c 'import sys; print(sys.base_prefix)')
PYV=$($PY -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
L=/usr/lib/x86_64-linux-gnu
cpl() { cp -al "$@" 2>/dev/null || cp -a "$@"; }   # hard links when the file system allows
rm -rf "$R"; mkdir -p $R$L $R/usr/lib64 $R/usr/sbin $R/usr/bin $R/etc $R/var/lib/dpkg $R/opt $R/tmp $R/dev $R/proc $R/sys $R/root
ln -s usr/bin $R/bin; ln -s usr/sbin $R/sbin; ln -s usr/lib $R/lib; ln -s usr/lib64 $R/lib64
mkdir -p $R$(dirname $V); cpl $V $R$V
if [ "$BASE" = /usr ]; then
    cpl $PY $R/usr/bin/; ln -sf $(basename $PY) $R/usr/bin/python3
    mkdir -p $R/usr/lib; cpl /usr/lib/$PYV $R/usr/lib/
else
    mkdir -p $R$(dirname $BASE); cpl $BASE $R$BASE
fi
cp -a $L/ld-linux-x86-64.so.2 $L/libc.so.6 $L/libm.so.6 $L/libdl.so.2 $L/librt.so.1 $L/libpthread.so.0 $L/libutil.so.1 $L/libstdc++.so.6* $L/libgcc_s.so.1 $L/libz.so.1* $L/libcudnn* $R$L/ || true
cp -a /usr/lib64/ld-linux-x86-64.so.2 $R/usr/lib64/
# the system libraries the interpreter and every extension module need (never CUDA's or the driver's)
SKIP='lib(cuda|cudart|cudnn|cublas|nvrtc|nvJitLink|cufft|curand|cusolver|cusparse|nccl|cupti|nvToolsExt|nvshmem|cufile|nvidia-)'
find $PY $R/usr/lib/$PYV/lib-dynload $BASE/lib/$PYV/lib-dynload $R$V -name '*.so*' -o -type f -name 'python3*' 2>/dev/null |
    xargs -r -P 16 -n 32 ldd 2>/dev/null | awk '$3 ~ /^\/(usr\/)?lib(64)?\// {print $3}' | sort -u |
    while read -r f; do b=$(basename $f); echo "$b" | grep -qE "^$SKIP" && continue; [ -e $R$L/$b ] || cp -L $f $R$L/; done
cp -a /usr/sbin/ldconfig* $R/usr/sbin/ 2>/dev/null || true
cp -a /usr/bin/sh /usr/bin/dash /usr/bin/env $R/usr/bin/ 2>/dev/null || true
cp -a /etc/ld.so.conf /etc/ld.so.conf.d $R/etc/
cp -a /var/lib/dpkg/status $R/var/lib/dpkg/
echo "root:x:0:0:root:/root:/bin/sh" > $R/etc/passwd
ldconfig -r $R 2>/dev/null || true
