#!/bin/bash
# bench/cache_image: what the layer fact cache saves on a realistic CUDA image.
#
#   bench/cache_image.sh [CUVET]     (or: cmake --build BUILD --target bench_cache_image)
#
# Two OCI layouts built once from /usr/local/cuda under CUVET_BENCH_DIR
# (default /tmp/cuvet-bench), 3 gzip layers each (level 6): A holds the CUDA
# toolkit (lib64, include, bin) split in 3 layers of similar size;
# B shares A's first 2 layers and has its own third (lib3 again plus one
# file, so a new blob of the same size: the worst case for sharing).
# Times, each with a private empty cache dir ($XDG_CACHE_HOME) unless said:
#   cuvet files A, validate A --no-cache           (the cache's cost when off)
#   validate A, cache cold                          (reads all, writes 3 entries)
#   validate A again                                (target <= 0.2x the cold run)
#   validate B after A                              (target <= 0.5x the cold run)
# Environment: CUDA_HOME, CUVET_BENCH_DIR, REPEAT (best of N; default 1),
# LIMIT_MB (take library files, smallest first, up to this many MB: a smaller
# image for a loaded machine; default all).
set -euo pipefail

cuvet=${1:-$(dirname "$0")/../build/cuvet}
cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
bench=${CUVET_BENCH_DIR:-/tmp/cuvet-bench}
repeat=${REPEAT:-1}

[ -x "$cuvet" ] || { echo "cache_image: no cuvet binary at $cuvet" >&2; exit 2; }
[ -d "$cuda/lib64" ] || { echo "cache_image: no CUDA at $cuda (set CUDA_HOME); skipped" >&2; exit 0; }
for tool in pigz sha256sum awk tar; do
    command -v $tool >/dev/null || { echo "cache_image: $tool is missing" >&2; exit 2; }
done

# Writes stdin as a blob of layout $1, prints "digest size".
blob() {
    local tmp=$1/blob.tmp digest
    cat >"$tmp"
    digest=$(sha256sum "$tmp" | cut -d' ' -f1)
    mv "$tmp" "$1/blobs/sha256/$digest"
    echo "sha256:$digest $(stat -c %s "$1/blobs/sha256/$digest")"
}

# One gzip layer of the paths (relative to /) listed in $2 into layout $1,
# appended to the arrays layers/diff_ids; $3 (optional) is a file to add.
add_layer() {
    local image=$1 list=$2 extra=${3:-} gz=$1/layer.tmp diff digest size
    rm -f "$bench/fifo" && mkfifo "$bench/fifo"
    sha256sum <"$bench/fifo" >"$bench/diff_id" &
    # Another process touching a file's ctime is no reason to stop (tar exits 1).
    { cat "$list"; if [ -n "$extra" ]; then echo "${extra#/}"; fi; } | { tar -C / --no-recursion --warning=no-file-changed -cf - -T - || [ $? = 1 ]; } |
        tee "$bench/fifo" | pigz -6 >"$gz"
    wait
    diff=$(cut -d' ' -f1 "$bench/diff_id")
    digest=$(sha256sum "$gz" | cut -d' ' -f1)
    size=$(stat -c %s "$gz")
    mv "$gz" "$image/blobs/sha256/$digest"
    layers+=("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:$digest\",\"size\":$size}")
    diff_ids+=("\"sha256:$diff\"")
}

# Reuses layer $2 (its descriptor and diff_id) of layout $1 in the image being built in $3.
share_layer() {
    local from=$1 index=$2 image=$3 digest
    layers+=("${from_layers[$index]}")
    diff_ids+=("${from_diff_ids[$index]}")
    digest=$(echo "${from_layers[$index]}" | grep -o 'sha256:[0-9a-f]*' | cut -d: -f2)
    ln -f "$from/blobs/sha256/$digest" "$image/blobs/sha256/$digest"
}

finish_image() {
    local image=$1 config manifest
    read -r config config_size < <(printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=%s/bin:/usr/bin:/bin","LD_LIBRARY_PATH=%s/lib64"]},"rootfs":{"type":"layers","diff_ids":[%s]},"history":[{"created_by":"COPY lib1"},{"created_by":"COPY lib2"},{"created_by":"COPY lib3 tools"}]}' \
        "$cuda" "$cuda" "$(IFS=,; echo "${diff_ids[*]}")" | blob "$image")
    read -r manifest manifest_size < <(printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[%s]}' \
        "$config" "$config_size" "$(IFS=,; echo "${layers[*]}")" | blob "$image")
    printf '{"imageLayoutVersion":"1.0.0"}' >"$image/oci-layout"
    printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s}]}' \
        "$manifest" "$manifest_size" >"$image/index.json"
}

build_images() {
    echo "cache_image: building images A and B once in $bench (takes a few minutes)..." >&2
    local a=$bench/cache-a b=$bench/cache-b lists=$bench/cache-lists rel=${cuda#/}
    rm -rf "$a" "$b" "$lists" && mkdir -p "$a/blobs/sha256" "$b/blobs/sha256" "$lists"
    # Every file (libraries, include/, bin/), largest first, into the lightest
    # of 3 lists: layers of similar size, so that sharing 2 of 3 saves 2/3.
    (cd / && find "$rel/lib64/" "$rel/include" "$rel/bin" -mindepth 1 \( -type f -o -type l \) -printf '%s %p\n') | sort -n |
        awk -v limit="${LIMIT_MB:-0}" '{ total += $1; if (limit == 0 || total <= limit * 1e6) print }' | sort -rn |
        awk -v dir="$lists" '{ best = 1; for (i = 2; i <= 3; i++) if (load[i] < load[best]) best = i;
                               load[best] += $1; print $2 > (dir "/lib" best ".list") }'
    layers=() diff_ids=()
    for i in 1 2 3; do add_layer "$a" "$lists/lib$i.list"; done
    finish_image "$a"
    from_layers=("${layers[@]}") from_diff_ids=("${diff_ids[@]}")
    layers=() diff_ids=()
    share_layer "$a" 0 "$b"
    share_layer "$a" 1 "$b"
    echo "image B's own file" >"$bench/cache-b-note.txt"
    add_layer "$b" "$lists/lib3.list" "$bench/cache-b-note.txt"
    finish_image "$b"
    rm -f "$bench/fifo" "$bench/diff_id"
    echo "$cuda ${LIMIT_MB:-all} balanced" >"$bench/cache-source"
}

[ -f "$bench/cache-b/index.json" ] && [ "$(cat "$bench/cache-source" 2>/dev/null)" = "$cuda ${LIMIT_MB:-all} balanced" ] || build_images
a=$bench/cache-a b=$bench/cache-b
cache_home=$bench/cache-home

source "$(dirname "$0")/timing.sh"
cached() { XDG_CACHE_HOME=$cache_home "$@"; }
empty_cache() { rm -rf "$cache_home"; }
warm_a() { empty_cache; XDG_CACHE_HOME=$cache_home "$cuvet" validate --no-progress "$a" >/dev/null 2>&1 || true; }

cat "$a"/blobs/sha256/* "$b"/blobs/sha256/* >/dev/null  # page cache warm for everyone alike
size=$(du -cbL "$a"/blobs/sha256/* | tail -1 | cut -f1)
awk -v s="$size" -v cores="$(nproc)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    'BEGIN { printf "images: A (3 gzip layers, %.0f MB) and B (A'"'"'s first 2 layers + its own); %d cores, load %s\n", s / 1e6, cores, load }'
printf '%-44s %8s %8s %9s %9s\n' "command" "wall s" "cpu s" "vs cold" "cpu vs"
cold=""
report() {  # name "wall cpu" [target]
    local name=$1 wall=${2%% *} cpu=${2##* } target=${3:-}
    awk -v n="$name" -v w="$wall" -v c="$cpu" -v cold="$cold" -v t="$target" \
        'BEGIN { if (cold == "") printf "%-44s %8.2f %8.2f\n", n, w, c;
                 else { split(cold, k, " "); printf "%-44s %8.2f %8.2f %8.2fx %8.2fx%s\n", n, w, c, w / k[1], c / k[2], t == "" ? "" : "  (target " t ")" } }'
}
tf=$(before_each=empty_cache best_time cached "$cuvet" files "$a")
tn=$(before_each=empty_cache best_time cached "$cuvet" validate --no-progress --no-cache "$a")
report "cuvet files A" "$tf"
report "cuvet validate A --no-cache" "$tn"
awk -v f="${tf%% *}" -v v="${tn%% *}" 'BEGIN { printf "validate --no-cache vs files: %.2fx (target at most 1.10x)\n", v / f }'
cold=$(before_each=empty_cache best_time cached "$cuvet" validate --no-progress "$a")
report "cuvet validate A (cache cold, filled)" "$cold"
cold_ref=$cold
cold=""
awk -v n="${tn%% *}" -v c="${cold_ref%% *}" 'BEGIN { printf "cold cache vs --no-cache: %.2fx (the cost of writing the entries)\n", c / n }'
cold=$cold_ref
report "cuvet validate A again (cache warm)" "$(best_time cached "$cuvet" validate --no-progress "$a")" "0.20x"
report "cuvet validate B (2 of 3 layers cached)" "$(before_each=warm_a best_time cached "$cuvet" validate --no-progress "$b")" "0.50x"
XDG_CACHE_HOME=$cache_home "$cuvet" cache ls | head -1
cmp -s <(XDG_CACHE_HOME=$cache_home "$cuvet" validate --no-progress --format json "$b" 2>&1) \
    <("$cuvet" validate --no-progress --no-cache --format json "$b" 2>&1) &&
    echo "validate B: same report with and without the cache" || { echo "validate B: REPORTS DIFFER" >&2; exit 1; }
