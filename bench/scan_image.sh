#!/bin/bash
# bench/scan_image: how fast cuvet scans a realistic CUDA image, next to the
# decompressors that bound it, measured in the same run on the same layers.
#
#   bench/scan_image.sh [CUVET]     (or: cmake --build BUILD --target bench_scan_image)
#
# The image is built ONCE from /usr/local/cuda and cached outside the repo
# (CUVET_BENCH_DIR, default /tmp/cuvet-bench): an OCI layout with 4 gzip
# layers (level 6, what docker and buildkit write), the CUDA libraries split
# in 3 layers of similar size plus one for include/ and bin/.
#
# Environment: CUDA_HOME (default /usr/local/cuda), CUVET_BENCH_DIR, REPEAT
# (timed runs of each command, best kept; default 1), BUILD_ONLY=1 (build the
# image, print its path, time nothing).
set -euo pipefail

cuvet=${1:-$(dirname "$0")/../build/cuvet}
cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
cache=${CUVET_BENCH_DIR:-/tmp/cuvet-bench}
image=$cache/cuda-oci
repeat=${REPEAT:-1}

[ -x "$cuvet" ] || { echo "scan_image: no cuvet binary at $cuvet" >&2; exit 2; }
[ -d "$cuda/lib64" ] || { echo "scan_image: no CUDA at $cuda (set CUDA_HOME); skipped" >&2; exit 0; }
for tool in igzip gzip pigz sha256sum awk; do
    command -v $tool >/dev/null || { echo "scan_image: $tool is missing" >&2; exit 2; }
done

# Adds one gzip layer made of the files (relative to /) listed in $1.
add_layer() {
    local list=$1 diff gz
    gz=$cache/layer.tmp
    # The diff_id (sha256 of the tar) is hashed from a fifo as the tar streams by.
    rm -f "$cache/fifo" && mkfifo "$cache/fifo"
    sha256sum <"$cache/fifo" >"$cache/diff_id" &
    # Another process touching a file's ctime is no reason to stop (tar exits 1).
    { tar -C / --no-recursion --warning=no-file-changed -cf - -T "$list" || [ $? = 1 ]; } | tee "$cache/fifo" | pigz -6 >"$gz"
    wait
    diff=$(cut -d' ' -f1 "$cache/diff_id")
    local digest size
    digest=$(sha256sum "$gz" | cut -d' ' -f1)
    size=$(stat -c %s "$gz")
    mv "$gz" "$image/blobs/sha256/$digest"
    layers+=("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:$digest\",\"size\":$size}")
    diff_ids+=("\"sha256:$diff\"")
    history+=("{\"created_by\":\"COPY $(basename "$list" .list) # bench\"}")
}

blob() {  # writes stdin as a blob, prints "digest size"
    local tmp=$cache/blob.tmp digest
    cat >"$tmp"
    digest=$(sha256sum "$tmp" | cut -d' ' -f1)
    mv "$tmp" "$image/blobs/sha256/$digest"
    echo "sha256:$digest $(stat -c %s "$image/blobs/sha256/$digest")"
}

build_image() {
    echo "scan_image: building the image once in $image (takes a few minutes)..." >&2
    rm -rf "$image" && mkdir -p "$image/blobs/sha256" "$cache/lists"
    local rel=${cuda#/}
    # Libraries, largest first, each into the lightest of 3 lists.
    (cd / && find "$rel/lib64/" -mindepth 1 \( -type f -o -type l \) -printf '%s %p\n') | sort -rn |
        awk -v dir="$cache/lists" '{ best = 1; for (i = 2; i <= 3; i++) if (load[i] < load[best]) best = i;
                                     load[best] += $1; print $2 > (dir "/lib" best ".list") }'
    (cd / && find "$rel/include" "$rel/bin" \( -type f -o -type l \) -print) >"$cache/lists/tools.list"
    layers=() diff_ids=() history=()
    for list in "$cache"/lists/lib1.list "$cache"/lists/lib2.list "$cache"/lists/lib3.list "$cache"/lists/tools.list; do
        add_layer "$list"
    done
    local diff_list history_list layer_list
    diff_list=$(IFS=,; echo "${diff_ids[*]}")
    history_list=$(IFS=,; echo "${history[*]}")
    layer_list=$(IFS=,; echo "${layers[*]}")
    read -r config_digest config_size < <(printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=%s/bin:/usr/bin:/bin","LD_LIBRARY_PATH=%s/lib64"]},"rootfs":{"type":"layers","diff_ids":[%s]},"history":[%s]}' \
        "$cuda" "$cuda" "$diff_list" "$history_list" | blob)
    read -r manifest_digest manifest_size < <(printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[%s]}' \
        "$config_digest" "$config_size" "$layer_list" | blob)
    printf '{"imageLayoutVersion":"1.0.0"}' >"$image/oci-layout"
    printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"bench"}}]}' \
        "$manifest_digest" "$manifest_size" >"$image/index.json"
    rm -f "$cache/fifo" "$cache/diff_id"
    echo "$cuda" >"$cache/source"
}

[ -f "$image/index.json" ] && [ "$(cat "$cache/source" 2>/dev/null)" = "$cuda" ] || build_image
[ "${BUILD_ONLY:-0}" = 1 ] && { echo "$image"; exit 0; }  # bench/registry_image.sh reuses the image

mapfile -t blobs < <("$cuvet" image --format json "$image" | grep -o '"blob": *"[^"]*"' | cut -d'"' -f4)
[ "${#blobs[@]}" -gt 0 ] || { echo "scan_image: cuvet cannot read $image (delete it to rebuild)" >&2; exit 1; }
layer_files=()
for b in "${blobs[@]}"; do layer_files+=("$image/$b"); done
compressed=$(du -cb "${layer_files[@]}" | tail -1 | cut -f1)
uncompressed=0
for f in "${layer_files[@]}"; do uncompressed=$((uncompressed + $(igzip -dc "$f" | wc -c))); done

source "$(dirname "$0")/timing.sh"
each_layer() { local tool=$1; shift; for f in "${layer_files[@]}"; do "$tool" "$@" "$f"; done; }

cat "${layer_files[@]}" >/dev/null  # page cache warm for everyone alike

awk -v p="$image" -v n="${#layer_files[@]}" -v c="$compressed" -v u="$uncompressed" -v cores="$(nproc)" \
    'BEGIN { printf "image: %s: %d gzip layers, %.0f MB compressed, %.0f MB uncompressed; %d cores\n", p, n, c / 1e6, u / 1e6, cores }'
printf '%-40s %8s %8s %11s %11s %9s\n' "command" "wall s" "cpu s" "MB/s wall" "MB/s cpu" "vs igzip"
igzip_time=""
report() {  # name "wall cpu"
    local name=$1 wall=${2%% *} cpu=${2##* }
    [ -z "$igzip_time" ] && igzip_time=$wall
    awk -v n="$name" -v w="$wall" -v c="$cpu" -v u="$uncompressed" -v i="$igzip_time" \
        'BEGIN { printf "%-40s %8.2f %8.2f %11.0f %11.0f %8.2fx\n", n, w, c, u / w / 1e6, u / c / 1e6, i / w }'
}
report "igzip -dc (each layer, one after another)" "$(best_time each_layer igzip -dc)"
report "gzip -dc (each layer, one after another)" "$(best_time each_layer gzip -dc)"
workers_option=$("$cuvet" files --help | grep -c -- '--workers' || true)
if [ "$workers_option" -gt 0 ]; then
    t1=$(best_time "$cuvet" files --workers 1 "$image")
    report "cuvet files --workers 1" "$t1"
    report "cuvet files --workers 1 --no-verify" "$(best_time "$cuvet" files --workers 1 --no-verify "$image")"
    t2=$(best_time "$cuvet" files --workers 2 "$image")
    report "cuvet files --workers 2" "$t2"
    awk -v t1="${t1%% *}" -v t2="${t2%% *}" -v i="$igzip_time" -v cores="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "2 workers vs 1: %.2fx faster (target 1.6x); 1 worker vs igzip: %.2fx (target 0.9x)\n", t1 / t2, i / t1
                 if (load > cores) printf "warning: load average %s on %d cores: other work shares the CPUs; wall times are not comparable\n", load, cores }'
else
    report "cuvet files (default workers)" "$(best_time "$cuvet" files "$image")"
    echo "note: this cuvet has no --workers option; no 1-vs-2 worker comparison"
fi

# Issue 4: judging the image must cost little next to reading it. Default
# options (verification on, one worker per core) for both.
if "$cuvet" validate --help >/dev/null 2>&1; then
    tf=$(best_time "$cuvet" files "$image")
    report "cuvet files" "$tf"
    tv=$(best_time "$cuvet" validate --no-progress --no-cache "$image")
    report "cuvet validate" "$tv"
    awk -v f="${tf%% *}" -v v="${tv%% *}" \
        'BEGIN { printf "validate vs files: %.2fx the time (target at most 1.10x)\n", v / f }'
fi
