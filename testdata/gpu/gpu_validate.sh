#!/bin/bash
# Issue 4 on the GPU machine: `cuvet validate` on a rootfs made from this
# machine's own PyTorch environment (real torch 2.11 and nvidia wheel
# libraries), as it is and with a deployment's LD_LIBRARY_PATH, each next to
# the live probe; and bench/elf_facts' check that the streamed ELF facts equal
# the whole-file ones on every torch and nvidia library. Output goes to $OUT.
C=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$C}   # where cuvet, cuvet-probe, elf_facts and libisal.so.2 were carried
O=${OUT:-/tmp/out}; mkdir -p "$O"
exec > >(tee "$O/gpu_validate.log") 2>&1
log() { echo; echo "### $*"; }
V=/opt/torch/.venv; SP=$(ls -d $V/lib/python3*/site-packages)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "SP=$SP"; ls $SP | grep -iE "^nvidia_cudnn|^torch-"
R=/tmp/img
"$C/make_torch_rootfs.sh" "$SP" "$R"; du -sh $R; find $R -type f | wc -l
run() {  # run NAME ARGS...: cuvet validate on the rootfs, timed, text report
    local name=$1; shift
    log "cuvet validate: $name"
    /usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M KB" "$B/cuvet" validate "$R" --no-progress "$@"
    echo "exit code $?"
}
run "as built" --gpu H100 --driver 580.159.04
"$B/cuvet" validate "$R" --gpu H100 --driver 580.159.04 --format json > "$O/validate_good.json"; echo "json exit $?"
run "as built, on an older fleet (driver 535.104.05, A100 and T4)" --gpu A100 --gpu T4 --driver 535.104.05
run "deployed with LD_LIBRARY_PATH to the dpkg cuDNN 9.14" --env LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
run "as built, with the live probe (cuvet-probe beside cuvet)" --probe
run "LD_LIBRARY_PATH to the dpkg cuDNN, with the live probe" --probe --env LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
mv $R$SP/nvidia/cudnn /tmp/cudnn-aside
run "pip cuDNN removed (only the dpkg 9.14 left, via ld.so.conf)"
mv /tmp/cudnn-aside $R$SP/nvidia/cudnn
log "bench/elf_facts: streamed facts == whole-file facts"
"$B/elf_facts" $SP/torch/lib; echo "exit code $?"
"$B/elf_facts" $SP/nvidia; echo "exit code $?"
rm -rf $R
