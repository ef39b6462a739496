#!/bin/bash
# bench/daemon_cache: the layer fact cache on an image from the daemon (issue 26).
#
#   bench/daemon_cache.sh [CUVET]     (or: cmake --build BUILD --target bench_daemon_cache)
#
# Builds once under CUVET_BENCH_DIR (default /tmp/cuvet-bench) an OCI layout of
# LIMIT_MB (default 400) MB of shared libraries from $CUDA_HOME/lib64 (else
# /usr/lib/x86_64-linux-gnu), 3 uncompressed layers of similar size, and loads
# it (skopeo) into a private podman storage (vfs). Then serves that storage
# through `podman system service` on a unix socket, as a CI runner's daemon
# would, and times, each with a private cache dir ($XDG_CACHE_HOME):
#   validate docker-daemon:… --no-cache
#   validate docker-daemon:…, cache cold     (exports, reads all, writes 3 entries)
#   validate docker-daemon:…, cache warm     (target <= 0.20x the cold run)
#   validate containers-storage:…, cache warm (the same cache, through skopeo)
# and checks that the warm report equals the uncached one.
# Environment: CUDA_HOME, CUVET_BENCH_DIR, LIMIT_MB, REPEAT (best of N; default 1).
set -euo pipefail

cuvet=$(readlink -f "${1:-$(dirname "$0")/../build/cuvet}")
bench=${CUVET_BENCH_DIR:-/tmp/cuvet-bench}
repeat=${REPEAT:-1}
limit=${LIMIT_MB:-400}
cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
libs=$(readlink -f "$cuda/lib64")
[ -d "$libs" ] || libs=/usr/lib/x86_64-linux-gnu

[ -x "$cuvet" ] || { echo "daemon_cache: no cuvet binary at $cuvet" >&2; exit 2; }
for tool in podman skopeo sha256sum awk tar; do
    command -v $tool >/dev/null || { echo "daemon_cache: $tool is missing; skipped" >&2; exit 0; }
done

image=$bench/daemon-image
store=$bench/daemon-storage
storage="containers-storage:[vfs@$store/root+$store/run]localhost/cuvet/bench-daemon:1"

# Writes stdin as a blob of the layout, prints "digest size".
blob() {
    local tmp=$image/blob.tmp digest
    cat >"$tmp"
    digest=$(sha256sum "$tmp" | cut -d' ' -f1)
    mv "$tmp" "$image/blobs/sha256/$digest"
    echo "sha256:$digest $(stat -c %s "$image/blobs/sha256/$digest")"
}

build_image() {
    echo "daemon_cache: building a $limit MB image of $libs once in $bench..." >&2
    rm -rf "$image" "$store" && mkdir -p "$image/blobs/sha256" "$image/lists"
    # Regular files, smallest first up to the limit, dealt into the lightest of 3 lists.
    (cd / && find "${libs#/}" -maxdepth 1 -type f -printf '%s %p\n') | sort -n |
        awk -v limit="$limit" '{ total += $1; if (total <= limit * 1e6) print }' | sort -rn |
        awk -v dir="$image/lists" '{ best = 1; for (i = 2; i <= 3; i++) if (load[i] < load[best]) best = i;
                                     load[best] += $1; print $2 > (dir "/layer" best ".list") }'
    local layers=() diff_ids=() digest size i
    for i in 1 2 3; do
        read -r digest size < <(tar -C / --no-recursion -cf - -T "$image/lists/layer$i.list" | blob)
        layers+=("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"$digest\",\"size\":$size}")
        diff_ids+=("\"$digest\"")
    done
    read -r config config_size < <(printf '{"created":"2026-01-01T00:00:00Z","architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/bin:/bin","LD_LIBRARY_PATH=%s"]},"rootfs":{"type":"layers","diff_ids":[%s]},"history":[{"created":"2026-01-01T00:00:00Z","created_by":"COPY a"},{"created":"2026-01-01T00:00:00Z","created_by":"COPY b"},{"created":"2026-01-01T00:00:00Z","created_by":"COPY c"}]}' \
        "$libs" "$(IFS=,; echo "${diff_ids[*]}")" | blob)
    read -r manifest manifest_size < <(printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[%s]}' \
        "$config" "$config_size" "$(IFS=,; echo "${layers[*]}")" | blob)
    printf '{"imageLayoutVersion":"1.0.0"}' >"$image/oci-layout"
    printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"t"}}]}' \
        "$manifest" "$manifest_size" >"$image/index.json"
    skopeo copy --quiet "oci:$image:t" "$storage"
    echo "$libs $limit dated" >"$image/source"
}

[ "$(cat "$image/source" 2>/dev/null)" = "$libs $limit dated" ] && [ -d "$store/root" ] || build_image

socket=$bench/daemon.sock
rm -f "$socket"
podman --root "$store/root" --runroot "$store/run" --storage-driver vfs system service --time=0 \
    "unix://$socket" >"$bench/daemon-service.log" 2>&1 &
service=$!
trap 'kill $service 2>/dev/null; wait $service 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "daemon_cache: podman system service did not start" >&2; cat "$bench/daemon-service.log" >&2; exit 2; }

source "$(dirname "$0")/timing.sh"
cache_home=$bench/daemon-cache-home
export DOCKER_HOST=unix://$socket
daemon=docker-daemon:localhost/cuvet/bench-daemon:1
empty_cache() { rm -rf "$cache_home"; }
cached() { XDG_CACHE_HOME=$cache_home "$@"; }

size=$(du -cb "$image"/blobs/sha256/* | tail -1 | cut -f1)
awk -v s="$size" -v cores="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    'BEGIN { printf "image: 3 uncompressed layers, %.0f MB, from podman system service; %d cores, load %s\n", s / 1e6, cores, load }'
printf '%-48s %8s %8s %9s %9s\n' "command" "wall s" "cpu s" "vs cold" "cpu vs"
report() {  # name "wall cpu" [cold "wall cpu"]
    awk -v n="$1" -v w="${2%% *}" -v c="${2##* }" -v cold="${3:-}" \
        'BEGIN { if (cold == "") printf "%-48s %8.2f %8.2f\n", n, w, c;
                 else { split(cold, k, " "); printf "%-48s %8.2f %8.2f %8.2fx %8.2fx\n", n, w, c, w / k[1], c / k[2] } }'
}
# The daemon's export is CPU spent in podman, not in cuvet: the cpu column
# counts cuvet (and skopeo, its child) only; wall is what a job waits.
# A run that fails is no timing: say so rather than print its time.
XDG_CACHE_HOME=$cache_home "$cuvet" validate --no-progress --no-cache "$daemon" >/dev/null 2>"$bench/daemon-validate.err" ||
    [ $? = 1 ] || { echo "daemon_cache: validate failed:" >&2; cat "$bench/daemon-validate.err" >&2; exit 1; }
report "validate $daemon --no-cache" "$(before_each=empty_cache best_time cached "$cuvet" validate --no-progress --no-cache "$daemon")"
cold=$(before_each=empty_cache best_time cached "$cuvet" validate --no-progress "$daemon")
report "validate docker-daemon: (cache cold, filled)" "$cold"
report "validate docker-daemon: again (cache warm)" "$(best_time cached "$cuvet" validate --no-progress "$daemon")" "$cold"
report "validate containers-storage: (cache warm)" "$(best_time cached "$cuvet" validate --no-progress "$storage")" "$cold"
echo "target: warm at most 0.20x the cold run (wall)"
XDG_CACHE_HOME=$cache_home "$cuvet" cache ls | head -1
cmp -s <(XDG_CACHE_HOME=$cache_home "$cuvet" validate --no-progress --format json "$daemon" 2>&1) \
    <("$cuvet" validate --no-progress --no-cache --format json "$daemon" 2>&1) &&
    echo "warm report equals the uncached one" || { echo "daemon_cache: REPORTS DIFFER" >&2; exit 1; }
