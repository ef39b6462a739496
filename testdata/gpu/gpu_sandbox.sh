#!/bin/bash
# gpu_sandbox.sh: issue 28 on the GPU machine, through the built-in sandbox.
#  1. the torch image made from this machine's environment (make_torch_rootfs.sh): cuvet probe
#     (cuDNN probe + the PyTorch smoke) must still work inside the strict sandbox;
#  2. the stale-cache image: the pip cuDNN moved to /opt/cudnn/lib, listed in /etc/ld.so.conf.d,
#     /etc/ld.so.cache built before that (stale), the dpkg cuDNN removed: works live as under the
#     NVIDIA runtime (the host's ldconfig over the image's ld.so.conf), fails with the old chroot's
#     behaviour (no refresh) — shown by the same image with the conf file removed;
#  3. the hostile program (tests/sandbox/hostile/hostile_probe.c, built on the CPU host) as the probe,
#     with the GPU nodes injected: every escape must fail, the 2 GB flood is cut, cuvet's peak RSS is
#     measured, the verdict is not ok;
#  4. cuvet validate --probe on the torch image: static and live agree (no CUVG15).
# Usage: BIN=<dir with cuvet, cuvet-probe, hostile, libs/> OUT=<dir> bash gpu_sandbox.sh
C=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$C}; O=${OUT:-/tmp/out}; mkdir -p "$O"
# A default (dynamic) Debian 12 build: its libraries travel compressed beside it.
[ -f $B/libs.tar.xz ] && tar -xJf $B/libs.tar.xz -C $B
export LD_LIBRARY_PATH=$B/libs
CUVET="$B/cuvet"; PROBE="$B/cuvet-probe"
V=${VENV:-/opt/torch/.venv}; SP=$(ls -d $V/lib/python3*/site-packages)
PY=$V/bin/python3
LOG=$O/gpu_sandbox.log; : > $LOG
log() { echo "$*" | tee -a $LOG; }
# peak RSS of a command (KiB), the command's stdout to $1
measured() { local out=$1; shift
  $PY - "$out" "$@" <<'PYEOF'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
print("exit", rc, "peak_rss_mib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PYEOF
}
log "== host: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1) kernel $(uname -r)"
log "cgroup: $(stat -fc %T /sys/fs/cgroup) subtree_control: $(cat /sys/fs/cgroup/cgroup.subtree_control 2>&1)"
log "cdi specs: $(ls /etc/cdi /var/run/cdi 2>&1 | tr '\n' ' ')"
log "host ldconfig: $(file -L /sbin/ldconfig.real /sbin/ldconfig 2>&1 | tr '\n' ' ')"

R=/tmp/torchimg
bash $C/make_torch_rootfs.sh $SP $R >> $LOG 2>&1
log "== 1. torch image, builtin sandbox"
( time "$CUVET" probe --probe-runtime builtin --probe "$PROBE" --format json $R > $O/probe_torch.json 2>> $LOG ) 2>> $LOG
log "exit $? ; $($PY -c "import json,sys; d=json.load(open('$O/probe_torch.json')); print([(f['framework'], f['live'], f['verdict'], f['version']) for f in d['frameworks']], [x['id'] for x in d['findings']], d.get('sandbox_notes'))" 2>&1)"

log "== 2. stale ld.so.cache image"
S=/tmp/staleimg; rm -rf $S; cp -a $R $S
L=/usr/lib/x86_64-linux-gnu
rm -f $S$L/libcudnn*                                   # no dpkg cuDNN
mkdir -p $S/opt/cudnn/lib && mv $S$SP/nvidia/cudnn/lib/* $S/opt/cudnn/lib/ && rmdir $S$SP/nvidia/cudnn/lib
ldconfig -r $S                                          # the cache, before the conf lists /opt/cudnn/lib
echo /opt/cudnn/lib > $S/etc/ld.so.conf.d/cudnn.conf    # ... now stale
log "stale cache lists cudnn: $(strings $S/etc/ld.so.cache | grep -c libcudnn) entries"
"$CUVET" probe --probe-runtime builtin --probe "$PROBE" --format json $S > $O/probe_stale.json 2>> $LOG
log "exit $? ; $($PY -c "import json; d=json.load(open('$O/probe_stale.json')); print([(f['framework'], f['live'], f['verdict'], f['error'][:200]) for f in d['frameworks']], [x['id'] for x in d['findings']])" 2>&1)"
rm $S/etc/ld.so.conf.d/cudnn.conf                       # control: nothing lists /opt/cudnn/lib
"$CUVET" probe --probe-runtime builtin --probe "$PROBE" --format json $S > $O/probe_unlisted.json 2>> $LOG
log "control (conf removed) exit $? ; $($PY -c "import json; d=json.load(open('$O/probe_unlisted.json')); print([(f['framework'], f['live'], f['error'][:160]) for f in d['frameworks']], [x['id'] for x in d['findings']])" 2>&1)"
rm -rf $S

log "== 3. hostile probe with the GPU nodes"
H=/tmp/hostileimg; rm -rf $H; mkdir -p $H/etc $H/bin
echo "host secret" > /tmp/host-marker
$PY -c "import socket,time,os; s=socket.socket(); s.bind(('127.0.0.1',47999)); s.listen(); time.sleep(600)" & LISTENER=$!
export CUVET_HOSTILE_SECRET=1
log "$(measured $O/hostile.json "$CUVET" probe --probe-runtime builtin --self-test --format json --probe "$B/hostile" \
  --env CUVET_HOSTILE_MARKER=/tmp/host-marker --env CUVET_HOSTILE_PORT=47999 --env CUVET_HOSTILE_FORKS=6000 $H)"
$PY - $O/hostile.json >> $LOG 2>&1 <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    print(f["id"], f["message"][:200])
    for e in f["evidence"]:
        print("   ", e[-1500:])
print("notes", d.get("sandbox_notes"))
PYEOF
kill $LISTENER; unset CUVET_HOSTILE_SECRET
if [ -x "$B/cuvet_tests" ]; then
  log "== 3b. the CPU hostile/ld-cache/CDI tests, here with the GPU driver injected"
  CUVET_HOSTILE_BINARY=$B/hostile CUVET_BINARY=$CUVET "$B/cuvet_tests" "[hostile],[cdi],[sandbox][chroot]" 2>&1 \
    | grep -E "passed|failed|FAILED|skipped|hostile program's /dev|peak RSS|with expansion" -A2 | tail -60 >> $LOG
fi

log "== 4. validate --probe on the torch image"
"$CUVET" validate --probe --probe-runtime builtin --gpu H100 -f json $R > $O/validate_torch.json 2>> $LOG
log "exit $? ; $($PY -c "import json; d=json.load(open('$O/validate_torch.json')); fs=d.get('findings', d.get('results', [])); print(sorted(set(f.get('id', f.get('rule','?')) for f in fs)))" 2>&1)"
rm -rf $R $H
