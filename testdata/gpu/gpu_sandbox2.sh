#!/bin/bash
# gpu_sandbox2.sh: the real frameworks inside the strict built-in sandbox (issue 28): the
# framework root of make_framework_rootfs.sh (venv python, torch, jax, cupy, onnxruntime):
#  1. cuvet validate --probe: every framework's live verdict and the static/live agreement (CUVG15);
#  2. the stale-cache image with the real PyTorch: pip cuDNN moved to /opt/cudnn/lib, listed in
#     /etc/ld.so.conf.d, /etc/ld.so.cache built before, dpkg cuDNN removed: `import torch` + conv must work.
# Usage: BIN=<dir> OUT=<dir> bash gpu_sandbox2.sh (BIN as for gpu_sandbox.sh)
C=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$C}; O=${OUT:-/tmp/out}; mkdir -p "$O"
[ -d $B/libs ] || { [ -f $B/libs.tar.xz ] && tar -xJf $B/libs.tar.xz -C $B; }
export LD_LIBRARY_PATH=$B/libs
CUVET="$B/cuvet"; PROBE="$B/cuvet-probe"
V=${VENV:-/opt/torch/.venv}; SP=$(ls -d $V/lib/python3*/site-packages); PY=$V/bin/python3
LOG=$O/gpu_sandbox2.log; : > $LOG
log() { echo "$*" | tee -a $LOG; }
R=/tmp/fwimg
bash $C/make_framework_rootfs.sh $R >> $LOG 2>&1
log "== 1. validate --probe, framework root ($(du -sh $R | cut -f1))"
( time "$CUVET" validate --probe --probe-runtime builtin --gpu H100 -f json $R > $O/validate_fw.json 2>> $LOG ) 2>> $LOG
log "exit $?"
$PY - $O/validate_fw.json >> $LOG 2>&1 <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(x, found):
    if isinstance(x, dict):
        if "id" in x and str(x.get("id", "")).startswith("CUV"): found.append((x["id"], x.get("severity"), str(x.get("message", ""))[:160]))
        for v in x.values(): walk(v, found)
    elif isinstance(x, list):
        for v in x: walk(v, found)
found = []; walk(d, found)
for f in found:
    if f[0].startswith("CUVG") or f[1] == "error": print(*f)
print("ids", sorted(set(f[0] for f in found)))
PYEOF
log "== 2. stale ld.so.cache, real PyTorch"
L=/usr/lib/x86_64-linux-gnu
rm -f $R$L/libcudnn*
mkdir -p $R/opt/cudnn/lib && mv $R$SP/nvidia/cudnn/lib/* $R/opt/cudnn/lib/ && rmdir $R$SP/nvidia/cudnn/lib
ldconfig -r $R
echo /opt/cudnn/lib > $R/etc/ld.so.conf.d/cudnn.conf
log "stale cache lists cudnn: $(strings $R/etc/ld.so.cache | grep -c libcudnn) entries"
"$CUVET" probe --probe-runtime builtin --probe "$PROBE" --probe-frameworks torch --format json $R > $O/probe_stale_torch.json 2>> $LOG
log "exit $? ; $($PY -c "import json; d=json.load(open('$O/probe_stale_torch.json')); print([(f['framework'], f['version'], f['live'], f['verdict'], [l for l in f['loaded'] if 'cudnn' in l][:2], f['error'][:200]) for f in d['frameworks']], [x['id'] for x in d['findings']], d['sandbox_notes'])" 2>&1)"
rm $R/etc/ld.so.conf.d/cudnn.conf
"$CUVET" probe --probe-runtime builtin --probe "$PROBE" --probe-frameworks torch --format json $R > $O/probe_unlisted_torch.json 2>> $LOG
log "control (conf removed) exit $? ; $($PY -c "import json; d=json.load(open('$O/probe_unlisted_torch.json')); print([(f['framework'], f['live'], f['error'][:200]) for f in d['frameworks']], [x['id'] for x in d['findings']])" 2>&1)"
rm -rf $R
