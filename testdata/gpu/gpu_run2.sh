#!/bin/bash
# Second pass: cuobjdump listings of fatbin-carrying libraries for the elf
# engineer's cross-check, and the LD_LIBRARY_PATH variant with the refined finding.
C=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
SP=/opt/torch/.venv/lib/python3.12/site-packages
for f in torchvision/_C.so torch/lib/libtorch_cuda.so; do
  n=$(echo $f | tr '/' '_')
  { sha256sum $SP/$f; ls -l $SP/$f; cuobjdump --list-elf --list-ptx $SP/$f; } > "$O/cuobjdump_$n.txt" 2>&1
  echo "$f: $(grep -c ELF "$O/cuobjdump_$n.txt") ELF, $(grep -c PTX "$O/cuobjdump_$n.txt") PTX"; head -3 "$O/cuobjdump_$n.txt"
done
R=/tmp/img; rm -rf $R; mkdir -p $R/usr/lib/x86_64-linux-gnu $R/usr/lib64 $R/usr/sbin $R/usr/bin $R/etc $R$SP
ln -s usr/bin $R/bin; ln -s usr/sbin $R/sbin; ln -s usr/lib $R/lib; ln -s usr/lib64 $R/lib64
L=/usr/lib/x86_64-linux-gnu
cp -a $L/ld-linux-x86-64.so.2 $L/libc.so.6 $L/libm.so.6 $L/libdl.so.2 $L/librt.so.1 $L/libpthread.so.0 $L/libstdc++.so.6* $L/libgcc_s.so.1 $L/libz.so.1* $L/libcudnn* $R$L/
cp -a /usr/lib64/ld-linux-x86-64.so.2 $R/usr/lib64/
for f in $(ldd $SP/torch/lib/libtorch_cuda.so | awk '$3 ~ /^\/(usr\/)?lib\// {print $3}'); do [ -e $R$L/$(basename $f) ] || cp -L $f $R$L/; done
cp -a /usr/sbin/ldconfig* $R/usr/sbin/ 2>/dev/null; cp -a /etc/ld.so.conf /etc/ld.so.conf.d $R/etc/
cp -a $SP/torch $SP/torch-*.dist-info $SP/nvidia $SP/nvidia_*.dist-info $R$SP/
set -x
"$C/cuvet" probe --probe "$C/cuvet-probe" --env LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu $R; echo "exit code $?"
"$C/cuvet" probe --probe "$C/cuvet-probe" --timeout 1 $R; echo "exit code $?"
rm -rf $R
