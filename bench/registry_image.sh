#!/bin/bash
# bench/registry_image: validate of the bench image read from a local
# docker-registry (plain HTTP on 127.0.0.1) against validate of the same image
# on disk. Issue 13's budget: the registry run at most 1.2x the disk run.
#
#   bench/registry_image.sh [CUVET]
#
# The image is scan_image.sh's (built once under CUVET_BENCH_DIR, default
# /tmp/cuvet-bench); it is pushed once with skopeo into a registry whose
# storage is kept there too. Needs docker-registry and skopeo (Debian).
# Environment: REPEAT (timed runs, best kept; default 1).
set -euo pipefail

here=$(dirname "$0")
cuvet=$(readlink -f "${1:-$here/../build/cuvet}")
cache=${CUVET_BENCH_DIR:-/tmp/cuvet-bench}
repeat=${REPEAT:-1}
for tool in docker-registry skopeo; do
    command -v $tool >/dev/null || { echo "registry_image: $tool is missing; skipped" >&2; exit 0; }
done
image=$(BUILD_ONLY=1 "$here/scan_image.sh" "$cuvet" | tail -1)
[ -f "$image/index.json" ] || { echo "registry_image: no bench image (needs /usr/local/cuda); skipped" >&2; exit 0; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$cache/registry"
cat >"$cache/registry.yml" <<YAML
version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $cache/registry
http:
  addr: 127.0.0.1:$port
YAML
docker-registry serve "$cache/registry.yml" >"$cache/registry.log" 2>&1 &
registry_pid=$!
trap 'kill $registry_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
ref=docker://127.0.0.1:$port/cuvet/bench:1
# skopeo skips blobs the registry already has, so only the first run uploads.
skopeo copy --quiet --dest-tls-verify=false "oci:$image:bench" "$ref"

source "$(dirname "$0")/timing.sh"

"$cuvet" validate --no-progress --no-cache --format json --insecure "$ref" >"$cache/registry-report.json" || true
"$cuvet" validate --no-progress --no-cache --format json "$image" >"$cache/disk-report.json" || true
same=$(python3 -c 'import json, sys; a, b = (json.load(open(f)).get("findings") for f in sys.argv[1:]); print("yes" if a == b else "NO")' \
       "$cache/registry-report.json" "$cache/disk-report.json" 2>/dev/null || echo "NO (unreadable report)")
cat "$image"/blobs/sha256/* >/dev/null  # page cache warm for both alike
disk=$(best_time "$cuvet" validate --no-progress --no-cache "$image")
registry=$(best_time "$cuvet" validate --no-progress --no-cache --insecure "$ref")
awk -v p="$image" -v c="$(du -cb "$image"/blobs/sha256/* | tail -1 | cut -f1)" -v cores="$(nproc)" \
    'BEGIN { printf "image: %s, %.0f MB of blobs; %d cores\n", p, c / 1e6, cores }'
printf '%-48s %8s %8s\n' "command" "wall s" "cpu s"
printf '%-48s %8s %8s\n' "cuvet validate OCI layout (disk)" ${disk}
printf '%-48s %8s %8s\n' "cuvet validate $ref" ${registry}
awk -v d="${disk%% *}" -v r="${registry%% *}" -v cores="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" -v same="$same" \
    'BEGIN { printf "registry vs disk: %.2fx the time (target at most 1.20x); same findings: %s\n", r / d, same
             if (load > cores) printf "warning: load average %s on %d cores: wall times are not comparable\n", load, cores }'
