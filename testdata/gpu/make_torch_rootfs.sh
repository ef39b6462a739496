#!/bin/bash
# make_torch_rootfs.sh SITE_PACKAGES ROOTFS: a root file system made from the
# GPU machine's own PyTorch environment (torch + the nvidia wheels and their
# dist-info, glibc/libstdc++, the dpkg cuDNN and its dpkg status), the image
# cuvet validate and cuvet probe are run on in testdata/gpu/.
set -e
SP=$1 R=$2
rm -rf "$R"; mkdir -p $R/usr/lib/x86_64-linux-gnu $R/usr/lib64 $R/usr/sbin $R/usr/bin $R/etc $R/var/lib/dpkg $R$SP
ln -s usr/bin $R/bin; ln -s usr/sbin $R/sbin; ln -s usr/lib $R/lib; ln -s usr/lib64 $R/lib64
L=/usr/lib/x86_64-linux-gnu
cp -a $L/ld-linux-x86-64.so.2 $L/libc.so.6 $L/libm.so.6 $L/libdl.so.2 $L/librt.so.1 $L/libpthread.so.0 $L/libstdc++.so.6* $L/libgcc_s.so.1 $L/libz.so.1* $L/libcudnn* $R$L/
cp -a /usr/lib64/ld-linux-x86-64.so.2 $R/usr/lib64/
for f in $(ldd $SP/torch/lib/libtorch_cuda.so | awk '$3 ~ /^\/(usr\/)?lib\// {print $3}'); do [ -e $R$L/$(basename $f) ] || cp -L $f $R$L/; done
cp -a /usr/sbin/ldconfig* /sbin/ldconfig* $R/usr/sbin/ 2>/dev/null || true
cp -a /usr/bin/sh /usr/bin/dash $R/usr/bin/
cp -a /etc/ld.so.conf /etc/ld.so.conf.d $R/etc/
cp -a /var/lib/dpkg/status $R/var/lib/dpkg/
cp -a $SP/torch $SP/torch-*.dist-info $SP/nvidia $SP/nvidia_*.dist-info $R$SP/
