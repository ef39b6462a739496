#!/bin/bash
# The issue-10 measurement: what a new user sees first. A real Debian root
# file system made by mmdebstrap (python3, openmpi, the i386 multilib), the
# machine's real CUDA 13 toolkit and cuDNN 9 hard-linked in, and an app
# linked to cuDNN as the ENTRYPOINT; written as an OCI image by umoci and
# validated. Prints the findings per check and severity.
#
#   CUVET=build/cuvet ROOTFS_TAR=build/testdata/debian-rootfs.tar bash testdata/debian_root/measure.sh
# (the tarball is what tests/scenarios/debian_image_test.cpp makes with mmdebstrap)
set -euo pipefail
CUVET=${CUVET:-build/cuvet}
ROOTFS_TAR=${ROOTFS_TAR:-build/testdata/debian-rootfs.tar}
CUDA=$(readlink -f "${CUDA:-/usr/local/cuda}")
work=$(mktemp -d "${TMPDIR:-/tmp}/cuvet-debian.XXXXXX")
trap 'rm -rf "$work"' EXIT

umoci init --layout "$work/oci"
umoci new --image "$work/oci:debian"
umoci unpack --rootless --image "$work/oci:debian" "$work/bundle" >/dev/null
root="$work/bundle/rootfs"
tar -xf "$ROOTFS_TAR" -C "$root"
mkdir -p "$root/usr/local" "$root/opt/app/bin"
cp -al "$CUDA" "$root/usr/local/$(basename "$CUDA")" 2>/dev/null || cp -a "$CUDA" "$root/usr/local/$(basename "$CUDA")"
ln -s "$(basename "$CUDA")" "$root/usr/local/cuda"
echo /usr/local/cuda/lib64 > "$root/etc/ld.so.conf.d/cuda.conf"
printf 'int cudnnCreate(void **);\nint main(void) { void *h; return cudnnCreate(&h); }\n' > "$work/infer.c"
gcc -o "$root/opt/app/bin/infer" "$work/infer.c" -L"$CUDA/lib64" -l:libcudnn.so.9 \
    -Wl,--enable-new-dtags,-rpath,/usr/local/cuda/lib64
printf '#!/bin/sh\nset -e\nexec /opt/app/bin/infer "$@"\n' > "$root/docker-entrypoint.sh"
chmod +x "$root/docker-entrypoint.sh"
umoci repack --image "$work/oci:debian" "$work/bundle" >/dev/null
umoci config --image "$work/oci:debian" --config.entrypoint /docker-entrypoint.sh \
    --config.env PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

count() {
    python3 -c '
import json, sys, collections
r = json.load(sys.stdin)
c = collections.Counter((f["severity"], f["id"]) for f in r["findings"])
print("  findings:", sum(c.values()), "errors:", sum(v for (s, _), v in c.items() if s == "error"))
for (s, i), v in sorted(c.items()): print("   ", s, i, v)
for f in r["findings"]:
    if f["severity"] == "error": print("    error:", f["id"], f["message"][:150], "| loaded_by:", f.get("loaded_by", "-"))
'
}
echo "== as built ($(du -sh "$root" | cut -f1), $(find "$root" -type f | wc -l) files)"
/usr/bin/time -f "  %e s, %M KB" "$CUVET" validate --no-progress --no-cache -f json --driver 580.65.06 "$work/oci" | count || true
echo "== cuDNN removed from the toolkit"
rm -rf "$work/bundle"
umoci unpack --rootless --image "$work/oci:debian" "$work/bundle" >/dev/null 2>&1
rm -f "$work/bundle/rootfs/usr/local/$(basename "$CUDA")"/lib64/libcudnn* "$work/bundle/rootfs/usr/local/$(basename "$CUDA")"/targets/*/lib/libcudnn*
umoci repack --image "$work/oci:debian" "$work/bundle" >/dev/null
"$CUVET" validate --no-progress --no-cache -f json --driver 580.65.06 "$work/oci" | count || true
