#!/bin/bash
# framework_variants.sh: the real frameworks (PyTorch conv2d, a JAX conv under
# jit, a CuPy RawKernel + conv, an ONNX Runtime Conv with the CUDA provider, a
# Triton kernel) run with the image's own interpreter inside variant roots made
# from this machine's environment (make_framework_rootfs.sh), each in a chroot
# with its own mount and network namespace, the host driver injected as the
# NVIDIA container toolkit does (only for those runs: cuvet sees the root
# without it). The smoke scripts are cuvet's own
# (src/frameworks/smoke/common.py + FRAMEWORK.py, saved as cuvet_smoke_FRAMEWORK.py:
# a file named torch.py would shadow the torch package); each run's stdout/stderr is
# kept verbatim (long stderr: head and tail). Output: $OUT/variants.log and
# $OUT/smoke.jsonl (one result per variant and framework).
# With CUVET=path/to/cuvet (cuvet-probe beside it), each variant also gets
# `cuvet validate` (static, json) and, for the variants in PROBE_VARIANTS,
# `cuvet validate --probe` (json), kept in $OUT/cuvet.tar.gz; agreement.py
# turns them into the live vs static table.
C=$(cd "$(dirname "$0")" && pwd)
S=${SMOKE:-$C/../../src/frameworks/smoke}
O=${OUT:-/tmp/out}; mkdir -p "$O"
# What the static verdicts are judged against: this machine's GPU (CUV010, CUV016's Triton targets).
CUVET_ARGS=${CUVET_ARGS:---gpu H100}
V=${VENV:-/opt/torch/.venv}; SP=$(ls -d $V/lib/python3*/site-packages)
FRAMEWORKS=${FRAMEWORKS:-torch jax cupy onnxruntime triton}
W=/tmp/fw; rm -rf $W; mkdir -p $W/smoke
# triton's smoke is the harness's own (testdata/gpu/smoke_triton.py), the others cuvet's
for f in $FRAMEWORKS; do b=$S/$f.py; [ -f $C/smoke_$f.py ] && b=$C/smoke_$f.py; cat $S/common.py $b > $W/smoke/cuvet_smoke_$f.py; done
LOG=$O/variants.log; JSONL=$O/smoke.jsonl; : > $LOG; : > $JSONL
BASE=/tmp/base; R=/tmp/variant
log() { echo "$*" | tee -a $LOG; }
clip() { local n=$(wc -l < "$1"); if [ $n -le 70 ]; then cat "$1"; else head -25 "$1"; echo "[... $((n - 55)) lines cut ...]"; tail -30 "$1"; fi; }

# the host driver, found as the container toolkit finds it (ldconfig -p + /usr/local/nvidia)
DRIVER=$( (ldconfig -p | awk '/x86-64/ && $1 ~ /^lib(cuda|nvidia-ptxjitcompiler|nvidia-nvvm|nvidia-ml|nvidia-gpucomp|cudadebugger)\.so\.[0-9]/ {print $NF}';
          ls /usr/local/nvidia/lib64/lib{cuda,nvidia-ptxjitcompiler,nvidia-nvvm,nvidia-ml,nvidia-gpucomp}.so.* 2>/dev/null) | sort -u)
# Only the framework runs see it: cuvet validate runs on the root as the image has it (no driver:
# a baked-in driver is itself CUV013), and --probe injects the driver itself. eject_driver removes
# what inject_driver added (the copies and ldconfig's links), so the next variant starts clean.
DL=/usr/lib/x86_64-linux-gnu
inject_driver() { ls -A $1$DL > $W/before_driver
                  for f in $DRIVER; do cp -L $f $1$DL/$(basename $f); done
                  ldconfig -r $1 2>/dev/null || chroot $1 /usr/sbin/ldconfig; }
eject_driver() { ls -A $1$DL | comm -13 $W/before_driver - | while read -r f; do rm -f "$1$DL/$f"; done
                 ldconfig -r $1 2>/dev/null || chroot $1 /usr/sbin/ldconfig; }

# pip uninstall as pip does it: every file the dist-info's RECORD lists, then the dist-info
uninstall() { local d; for d in $R$SP/$1-*.dist-info; do [ -d "$d" ] || { log "  (no $1 in the root)"; continue; }
    (cd $R$SP && cut -d, -f1 $d/RECORD | grep -v '^\.\./' | while read -r f; do rm -f "$f"; done); rm -rf $d; log "  uninstalled $(basename $d)"; done; }

NETNS=-n; unshare -n true 2>/dev/null || { NETNS=; log "unshare -n refused: runs keep the host network"; }
# run_fw FRAMEWORK ENV...: one framework in the variant root
run_fw() { local fw=$1; shift
    timeout -k 5 240 unshare -m $NETNS --fork sh -c "mount -t proc proc $R/proc && mount --rbind /dev $R/dev && mount --rbind /sys $R/sys \
        && mount -t tmpfs -o size=2g tmpfs $R/tmp && mkdir -p $R/tmp/smoke && cp $W/smoke/cuvet_smoke_$fw.py $R/tmp/smoke/ \
        && exec chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp $* \
           $V/bin/python3 /tmp/smoke/cuvet_smoke_$fw.py" > $W/$fw.out 2> $W/$fw.err
    echo $? > $W/$fw.rc; }
# variant NAME DESCRIPTION [ENV...]: the frameworks in parallel, then their output in order
# (ONLY="name …" runs just those variants; the roots are still made for the others)
variant() { local name=$1 what=$2; shift 2
    [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $name " && return
    log ""; log "######## variant $name: $what ${*:+(env: $*)}"
    [ -n "$CUVET" ] && run_cuvet $name "$@"
    inject_driver $R
    local t=$(date +%s%N); for fw in $FRAMEWORKS; do run_fw $fw "$@" & done; wait
    eject_driver $R
    log "(all frameworks: $(( ($(date +%s%N) - t) / 1000000 )) ms)"
    for fw in $FRAMEWORKS; do
        log "=== $name / $fw: exit $(cat $W/$fw.rc)"; log "--- stdout"; clip $W/$fw.out >> $LOG; log "--- stderr"; clip $W/$fw.err >> $LOG
        local line=$(grep '^CUVET_SMOKE ' $W/$fw.out | tail -1 | cut -d' ' -f2-)
        echo "{\"variant\": \"$name\", \"framework\": \"$fw\", \"exit\": $(cat $W/$fw.rc), \"result\": ${line:-null}}" >> $JSONL
        echo "$name/$fw: $(echo "$line" | grep -oE '"verdict": "[a-z_]+"') exit $(cat $W/$fw.rc)"
    done; }
# run_cuvet NAME ENV...: cuvet's static verdict, and its live one where asked
run_cuvet() { local name=$1 e; shift; local args=(); for e in "$@"; do args+=(--env "$e"); done
    mkdir -p $W/cuvet; local t=$(date +%s%N)
    timeout 300 $CUVET validate $R --no-progress -f json $CUVET_ARGS "${args[@]}" > $W/cuvet/$name.static.json 2> $W/cuvet/$name.static.err
    local rc=$?; echo $rc > $W/cuvet/$name.static.rc   # the gate's real output, scored by agreement.py
    log "cuvet validate (static): exit $rc in $(( ($(date +%s%N) - t) / 1000000 )) ms"
    # The same image judged as a runtime without the NVIDIA toolkit starts it (no ldconfig at start).
    if echo " $NONE_VARIANTS " | grep -q " $name "; then
        timeout 300 $CUVET validate $R --no-progress -f json --runtime-start none $CUVET_ARGS "${args[@]}" > $W/cuvet/$name.none.json 2> $W/cuvet/$name.none.err
        rc=$?; echo $rc > $W/cuvet/$name.none.rc; log "cuvet validate --runtime-start none: exit $rc"; fi
    if echo " $PROBE_VARIANTS " | grep -q " $name "; then t=$(date +%s%N)
        timeout 400 $CUVET validate $R --no-progress -f json --probe $CUVET_ARGS "${args[@]}" > $W/cuvet/$name.probe.json 2> $W/cuvet/$name.probe.err
        log "cuvet validate --probe: exit $? in $(( ($(date +%s%N) - t) / 1000000 )) ms"; fi
    tar -C $W -czf $O/cuvet.tar.gz cuvet; }
fresh() { rm -rf $R; cp -al $BASE $R; }

log "driver libraries: $DRIVER"
# what TensorRT and Triton there are, and how Triton finds ptxas, cupti and a C compiler
( echo "## TensorRT"; find / -xdev \( -name 'libnvinfer*' -o -name 'tensorrt*' \) 2>/dev/null | grep -v "^/proc" | head -30
  $V/bin/python3 -m pip list 2>/dev/null | grep -iE 'tensorrt|triton|nvinfer' || ls $SP | grep -iE 'tensorrt|triton'
  echo "## triton dist-info"; cat $SP/triton-*.dist-info/METADATA | grep -E '^(Name|Version|Requires-Dist)'
  T=$SP/triton; echo "## triton files"; ls -la $T/backends/nvidia/bin $T/backends/nvidia/lib $T/backends/nvidia/lib/cupti $T/_C
  for f in $T/_C/libtriton.so $T/_C/libproton.so $T/backends/nvidia/lib/cupti/libcupti.so.*; do echo "## readelf $f"; readelf -d $f | grep -E 'NEEDED|RPATH|RUNPATH|SONAME'; done
  for b in $T/backends/nvidia/bin/*; do echo "## $b"; $b --version 2>&1 | tail -2; done
  echo "## compiler.py/driver.py/build.py: ptxas, cupti, cc, cuda lookups"
  grep -nE 'ptxas|PTXAS|cupti|CUPTI|CC\b|"cc"|gcc|clang|Python.h|libcuda|ldconfig|CUDA_PATH|_path_to_binary|which' $T/backends/nvidia/compiler.py $T/backends/nvidia/driver.py $T/runtime/build.py $T/knobs.py 2>/dev/null | head -150
  echo "## host C compilers"; ls -la /usr/bin/cc /usr/bin/gcc* 2>&1; ls /usr/include/python3*/Python.h 2>&1
) > $O/triton_tensorrt_facts.txt 2>&1
t=$(date +%s); "$C/make_framework_rootfs.sh" $BASE
log "base root: $(du -sh $BASE | cut -f1), $(find $BASE -type f | wc -l) files, built in $(( $(date +%s) - t )) s"
ls $BASE/usr/lib/x86_64-linux-gnu | tr '\n' ' ' >> $LOG; echo >> $LOG

R=/; log ""; log "######## host (no chroot): the machine as it is"
for fw in $FRAMEWORKS; do ( timeout -k 5 240 $V/bin/python3 $W/smoke/cuvet_smoke_$fw.py > $W/$fw.out 2> $W/$fw.err; echo $? > $W/$fw.rc ) & done; wait
for fw in $FRAMEWORKS; do log "=== host / $fw: exit $(cat $W/$fw.rc)"; clip $W/$fw.out >> $LOG; clip $W/$fw.err >> $LOG
    line=$(grep '^CUVET_SMOKE ' $W/$fw.out | tail -1 | cut -d' ' -f2-); echo "{\"variant\": \"host\", \"framework\": \"$fw\", \"exit\": $(cat $W/$fw.rc), \"result\": ${line:-null}}" >> $JSONL; done
R=/tmp/variant

fresh; variant as_built "the venv as installed, dpkg cuDNN 9.14 beside it"
fresh; uninstall nvidia_cudnn_cu13; variant pip_cudnn_removed "pip uninstall nvidia-cudnn-cu13 (dpkg cuDNN 9.14 left)"
fresh; variant ld_library_path_system_cudnn "LD_LIBRARY_PATH to the dpkg cuDNN" LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
fresh; uninstall nvidia_cuda_runtime; variant cuda_runtime_removed "pip uninstall nvidia-cuda-runtime"
fresh; uninstall nvidia_cudnn_cu13; rm -f $R/usr/lib/x86_64-linux-gnu/libcudnn*; ldconfig -r $R; variant no_cudnn "no cuDNN at all"
TK=$(readlink -f /usr/local/cuda)   # /usr/local/cuda -> /etc/alternatives/cuda -> /usr/local/cuda-13.0
add_toolkit() { mkdir -p $R/usr/local; cp -al $TK $R$TK 2>/dev/null || cp -a $TK $R$TK; ln -s $(basename $TK) $R/usr/local/cuda; ldconfig -r $R; }
# Triton gets past its launcher only with a C compiler and Python.h in the root: the host's gcc and
# python3-dev, copied file by file from their packages. Then which ptxas it assembles with: its
# bundled 12.8 one, Debian's CUDA 11.8 ptxas (no sm_90a: PTXAS_118, carried in), the toolkit's 13.0.
add_gcc() { local p; for p in gcc gcc-13 gcc-13-x86-64-linux-gnu cpp cpp-13 cpp-13-x86-64-linux-gnu binutils \
        binutils-x86-64-linux-gnu binutils-common libbinutils libctf0 libctf-nobfd0 libsframe1 libjansson4 libgprofng0 \
        libgcc-13-dev libc6-dev libc-dev-bin linux-libc-dev libcrypt-dev libisl23 libmpc3 libmpfr6 libgmp10 libzstd1 \
        libasan8 libtsan2 liblsan0 libubsan1 libhwasan0 libitm1 libatomic1 libquadmath0 libcc1-0 \
        libpython3.12-dev python3.12-dev libpython3-dev python3-dev libexpat1-dev zlib1g-dev; do
        dpkg -L $p 2>/dev/null | while read -r f; do [ -f "$f" ] || [ -L "$f" ] && [ ! -e "$R$f" ] && cp -a --parents "$f" $R/ 2>/dev/null; done; done
    ldconfig -r $R
    printf '#include <Python.h>\nint f(void) { return Py_IsInitialized(); }\n' > $R/tmp/cc_check.c
    log "gcc in the root: $(chroot $R /usr/bin/gcc --version 2>&1 | head -1); Python.h build: \
$(chroot $R /usr/bin/gcc -shared -fPIC -I$(ls -d /usr/include/python3.1*) /tmp/cc_check.c -o /tmp/cc_check.so 2>&1 && echo ok)"
    rm -f $R/tmp/cc_check.*; }
fresh; add_gcc; variant gcc_added "gcc 13 and python3.12-dev added (Triton builds its launcher)"
if [ -x "${PTXAS_118:-}" ]; then
       mkdir -p $R/opt/cuda-11.8/bin; cp $PTXAS_118 $R/opt/cuda-11.8/bin/ptxas
       variant triton_ptxas_cuda118 "gcc added, TRITON_PTXAS_PATH to Debian's CUDA 11.8 ptxas (no sm_90a)" TRITON_PTXAS_PATH=/opt/cuda-11.8/bin/ptxas
fi
fresh; add_gcc; add_toolkit
       variant triton_ptxas_toolkit "gcc and the toolkit added, TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas (CUDA 13.0)" TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas
fresh; add_toolkit; variant toolkit_added "a full CUDA toolkit in /usr/local/cuda (as nvidia/cuda:*-devel)"
       variant toolkit_added_path "toolkit added, its bin on PATH" PATH=/usr/local/cuda/bin:/usr/bin:/bin
fresh; add_toolkit; uninstall nvidia_nvjitlink; variant toolkit_added_nvjitlink_wheel_removed "toolkit added, pip uninstall nvidia-nvjitlink"
fresh; mkdir -p $R/usr/local/cuda/nvvm/libdevice; cp $TK/nvvm/libdevice/* $R/usr/local/cuda/nvvm/libdevice/
       variant libdevice_only "only /usr/local/cuda/nvvm/libdevice (no ptxas, no toolkit libraries)"
       uninstall nvidia_nvjitlink; variant libdevice_only_nvjitlink_removed "only libdevice, pip uninstall nvidia-nvjitlink"
fresh; add_toolkit; find $R -name ptxas -delete; variant toolkit_added_no_ptxas "toolkit added, every ptxas deleted"
fresh; find $R -name ptxas -delete; find $R -name 'libnvJitLink.so*' -delete; variant no_ptxas_no_nvjitlink "no ptxas and no nvJitLink anywhere"
fresh; find $R -name ptxas -delete; variant no_ptxas "no ptxas anywhere (nvJitLink kept)"
fresh; uninstall nvidia_cuda_nvrtc; variant nvrtc_removed "pip uninstall nvidia-cuda-nvrtc"
fresh; uninstall nvidia_cublas; variant cublas_removed "pip uninstall nvidia-cublas"
fresh; uninstall jax_cuda13_plugin; variant jax_plugin_removed "pip uninstall jax-cuda13-plugin (pjrt kept)"
fresh; uninstall nvidia_nvjitlink; variant nvjitlink_removed "pip uninstall nvidia-nvjitlink"
# Not in the 16:07/17:12 runs: a broken cuDNN copy nothing loads (9.14 main beside 9.19 sub-libraries in
# /opt/old/cudnn: must not be an error), and a full toolkit put on LD_LIBRARY_PATH (its cuBLAS, nvJitLink…
# beat the wheels' RUNPATH $ORIGIN for every library that is not torch's DT_RPATH).
fresh; O2=$R/opt/old/cudnn; mkdir -p $O2; cp -l $R$DL/libcudnn.so.9.14.0 $R$DL/libcudnn_cnn.so.9.14.0 $O2/
       for f in ops graph; do cp -l $R$SP/nvidia/cudnn/lib/libcudnn_$f.so.9 $O2/libcudnn_$f.so.9.19.0; done
       variant unloaded_mixed_cudnn "a mixed cuDNN copy nothing loads in /opt/old/cudnn (9.14 main, 9.19 sub-libraries)"
# The build-time hack left in the runtime image: a libcuda.so.1 link beside the toolkit's stub, the
# stubs dir on LD_LIBRARY_PATH (the stub is found before the injected driver).
fresh; add_toolkit; ln -s libcuda.so $R$TK/targets/x86_64-linux/lib/stubs/libcuda.so.1
       variant stub_libcuda_on_path "toolkit added, libcuda.so.1 -> stub, LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs" LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs
fresh; add_toolkit; variant toolkit_ld_library_path "toolkit added, LD_LIBRARY_PATH=/usr/local/cuda/lib64" LD_LIBRARY_PATH=/usr/local/cuda/lib64
# Issue 24: the gate's exit code over the whole venv (mpi4py, numba… included), a variant where
# everything works, the container start (ldconfig over the image's ld.so.conf), LD_PRELOAD, a
# cuDNN whose version is not tied to a wheel, and a library torch needs through its closure.
fresh; add_gcc; add_toolkit; variant healthy_all "gcc and the toolkit added: every framework works, Triton too"
# The wheel's cuDNN copied to /opt/cudnn/lib (its dist-info gone: no version but the major) and
# listed in ld.so.conf.d, the dpkg cuDNN removed, no ldconfig after: /etc/ld.so.cache is stale.
cudnn_to_opt() { mkdir -p $R/opt/cudnn/lib; mv $R$SP/nvidia/cudnn/lib/* $R/opt/cudnn/lib/; rm -rf $R$SP/nvidia_cudnn_cu13-*.dist-info
                 rm -f $R$DL/libcudnn*; echo /opt/cudnn/lib > $R/etc/ld.so.conf.d/cudnn.conf; }
fresh; add_toolkit; cudnn_to_opt; variant stale_cache_cudnn_opt "toolkit added, cuDNN in /opt/cudnn/lib via ld.so.conf.d, ld.so.cache stale"
fresh; add_toolkit; variant ld_preload_dpkg_cudnn "toolkit added, LD_PRELOAD of the dpkg cuDNN 9.14" LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libcudnn.so.9
fresh; uninstall nvidia_cufft; variant cufft_removed "pip uninstall nvidia-cufft"
# Held out (HELDOUT: not looked at while fixing): scored apart by agreement.py.
fresh; add_toolkit; echo /usr/lib/x86_64-linux-gnu/libcudnn.so.9 > $R/etc/ld.so.preload
       variant ld_so_preload_dpkg_cudnn "toolkit added, /etc/ld.so.preload names the dpkg cuDNN 9.14"
fresh; add_toolkit; variant ld_preload_pip_cudnn "toolkit added, LD_PRELOAD of the wheel's own cuDNN" LD_PRELOAD=$SP/nvidia/cudnn/lib/libcudnn.so.9
fresh; add_toolkit; uninstall nvidia_cufft; variant cufft_removed_toolkit "toolkit added, pip uninstall nvidia-cufft"
fresh; uninstall nvidia_nccl_cu13; variant nccl_removed "pip uninstall nvidia-nccl-cu13"
fresh; add_toolkit; cudnn_to_opt; rm -f $R/etc/ld.so.conf.d/cudnn.conf
       variant cudnn_opt_ld_library_path "toolkit added, cuDNN in /opt/cudnn/lib (no version but the major) on LD_LIBRARY_PATH" LD_LIBRARY_PATH=/opt/cudnn/lib
# Held out at stop 22 (HELDOUT): a cuDNN whose version is only in its binary. The dpkg cuDNN 9.14's
# files renamed libcudnn*.so.9 into /opt/cudnn/lib (no header, no package beside them), the wheel's
# cuDNN uninstalled, LD_LIBRARY_PATH to it: torch 2.11 (built with 9.19) refuses 9.14 at its first
# convolution. And the wheel's own 9.19 moved there the same way (healthy).
cudnn_binary_only() { mkdir -p $R/opt/cudnn/lib; local f b
                      for f in $1; do b=$(basename $f); mv $f $R/opt/cudnn/lib/${b%%.so.*}.so.9; done
                      rm -f $R$DL/libcudnn*; rm -rf $R$SP/nvidia/cudnn $R$SP/nvidia_cudnn_cu13-*.dist-info; ldconfig -r $R; }
fresh; cudnn_binary_only "$R$DL/libcudnn*.so.9.*"
       variant dpkg_cudnn_binary_only "dpkg cuDNN 9.14 as /opt/cudnn/lib/libcudnn*.so.9 only (version only in the binary), wheel cuDNN removed" LD_LIBRARY_PATH=/opt/cudnn/lib
fresh; cudnn_binary_only "$R$SP/nvidia/cudnn/lib/libcudnn*.so.9"
       variant wheel_cudnn_binary_only "the wheel's cuDNN 9.19 as /opt/cudnn/lib/libcudnn*.so.9 (version only in the binary), dpkg cuDNN removed" LD_LIBRARY_PATH=/opt/cudnn/lib
# Issue 36: cuDNN 9's sub-libraries in lockstep. The wheel's shim loads its sub-libraries by name
# at the first operation; the dpkg cuDNN 9.14 is removed, so nothing else can stand in. One
# sub-library is removed, or replaced by the dpkg 9.14 file (its exported release constant says
# 9.14): a missing or older cnn/ops breaks convolution, adv only RNN/CTC/attention.
WL=$SP/nvidia/cudnn/lib
no_dpkg_cudnn() { rm -f $R$DL/libcudnn*; ldconfig -r $R; }
sublib_from_dpkg() { rm -f $R$WL/libcudnn_$1.so.9; cp -L $R$DL/libcudnn_$1.so.9.14.0 $R$WL/libcudnn_$1.so.9; }
fresh; no_dpkg_cudnn; variant cudnn_wheel_only "the dpkg cuDNN 9.14 removed: the wheel's 9.19 alone (healthy)"
fresh; rm -f $R$WL/libcudnn_cnn.so.9; no_dpkg_cudnn; variant cudnn_cnn_removed "the wheel's libcudnn_cnn.so.9 removed, no other cuDNN"
fresh; rm -f $R$WL/libcudnn_adv.so.9; no_dpkg_cudnn; variant cudnn_adv_removed "the wheel's libcudnn_adv.so.9 removed, no other cuDNN"
fresh; sublib_from_dpkg ops; no_dpkg_cudnn; variant cudnn_ops_9_14 "the wheel's libcudnn_ops.so.9 replaced by the dpkg 9.14 one"
fresh; sublib_from_dpkg adv; no_dpkg_cudnn; variant cudnn_adv_9_14 "the wheel's libcudnn_adv.so.9 replaced by the dpkg 9.14 one"
# Issue 36, stop 43: each consumer judged by what its own convolution opens (rules/cudnn.json
# consumer_needs). The toolkit is added so that JAX's convolution runs at all (its ptxas; without it
# every variant above fails JAX with CUV016), then one sub-library is removed or of 9.14. What the
# static check predicts, per framework (torch 2.11 opens graph/heuristic/engines_*, JAX 0.11.2 also
# ops, neither cnn):
#   cudnn_tk_wheel_only   torch ok, jax ok                       (healthy control, exit 0)
#   cudnn_tk_cnn_removed  torch ok, jax ok  (CUV019 warnings)     exit 0
#   cudnn_tk_ops_removed  torch ok (warning), jax error CUV019    exit 1, names jax only
#   cudnn_tk_ops_9_14     torch ok (warning), jax error CUV005    exit 1, names jax only
#   cudnn_tk_heuristic_removed  torch error, jax error CUV019     exit 1, names both
fresh; add_toolkit; no_dpkg_cudnn; variant cudnn_tk_wheel_only "toolkit added, the dpkg cuDNN 9.14 removed: the wheel's 9.19 alone (healthy)"
fresh; add_toolkit; rm -f $R$WL/libcudnn_cnn.so.9; no_dpkg_cudnn; variant cudnn_tk_cnn_removed "toolkit added, the wheel's libcudnn_cnn.so.9 removed, no other cuDNN"
fresh; add_toolkit; rm -f $R$WL/libcudnn_ops.so.9; no_dpkg_cudnn; variant cudnn_tk_ops_removed "toolkit added, the wheel's libcudnn_ops.so.9 removed, no other cuDNN"
fresh; add_toolkit; sublib_from_dpkg ops; no_dpkg_cudnn; variant cudnn_tk_ops_9_14 "toolkit added, the wheel's libcudnn_ops.so.9 replaced by the dpkg 9.14 one"
fresh; add_toolkit; rm -f $R$WL/libcudnn_heuristic.so.9; no_dpkg_cudnn; variant cudnn_tk_heuristic_removed "toolkit added, the wheel's libcudnn_heuristic.so.9 removed, no other cuDNN"
# Issue 36, libraries loaded by name beyond cuDNN. libnvrtc.so.13 dlopen()s libnvrtc-builtins.so.13.0
# (the exact name is in its .rodata) at the first nvrtcCompileProgram: CuPy compiles every kernel with
# NVRTC (its RawKernel stage fails), torch's convolution never calls it. Another minor's builtins is
# never opened: the wheel's file renamed to 13.9 stands for one. libcublas.so.13 needs libcublasLt.so.13
# as DT_NEEDED (not by name): without it nothing linking cuBLAS loads.
fresh; find $R -name 'libnvrtc-builtins.so*' -delete; variant nvrtc_builtins_removed "every libnvrtc-builtins.so* deleted (libnvrtc kept)"
fresh; for f in $(find $R -name 'libnvrtc-builtins.so.13.0'); do mv $f ${f%.13.0}.13.9; done
       variant nvrtc_builtins_other_minor "libnvrtc-builtins.so.13.0 renamed libnvrtc-builtins.so.13.9 (another minor's name)"
fresh; find $R -name 'libcublasLt.so*' -delete; variant cublaslt_removed "every libcublasLt.so* deleted (libcublas kept)"
# Issue 36, stop 44: the same libcudnn_ops of 9.14 reached through LD_LIBRARY_PATH instead of
# a copied file: only the dpkg libcudnn_ops.so.9 in /opt/cudnn-ops, which beats the wheel shim's
# RUNPATH $ORIGIN when it opens libcudnn_ops by name. Predicted like cudnn_tk_ops_9_14: torch and
# JAX ok (CUV005 warnings naming the tensor-descriptor/legacy ops API), exit 0.
fresh; add_toolkit; mkdir -p $R/opt/cudnn-ops; cp -L $R$DL/libcudnn_ops.so.9.14.0 $R/opt/cudnn-ops/libcudnn_ops.so.9
       no_dpkg_cudnn; variant cudnn_tk_ops_9_14_ld_library_path "toolkit added, the dpkg 9.14 libcudnn_ops.so.9 alone in /opt/cudnn-ops on LD_LIBRARY_PATH" LD_LIBRARY_PATH=/opt/cudnn-ops
rm -rf $R $BASE
[ -n "$CUVET" ] && tar -C $W -czf $O/cuvet.tar.gz cuvet
rm -rf $W
log "done: $(wc -l < $JSONL) results"
