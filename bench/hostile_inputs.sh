#!/bin/bash
# bench/hostile_inputs: what each hostile input of issue 22 costs cuvet: peak
# RSS and wall time per case (/usr/bin/time -v), never asserted (a budget
# table, not a test; bench/README.md has the measured one).
#
#   bench/hostile_inputs.sh [CUVET...]     several binaries: one column set each
#   CASES=zstd bench/hostile_inputs.sh     only the cases whose name matches (grep -E)
#
# The inputs are built once under CUVET_BENCH_DIR (default /tmp/cuvet-bench)/hostile
# by hostile_inputs.py. Every run has an address-space cap (MEM_KB, default
# 12 GB) so that a binary without the limits fails (rc 4) instead of taking
# the machine; --workers 1 and --no-cache so runs compare; TIMEOUT (default
# 600 s) ends a run that takes longer (rc 124).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$here/../build/cuvet"
out=${CUVET_BENCH_DIR:-/tmp/cuvet-bench}/hostile
mem_kb=${MEM_KB:-12000000}
for tool in gcc gzip zstd python3 /usr/bin/time; do
    command -v $tool >/dev/null || { echo "hostile_inputs: $tool is missing" >&2; exit 2; }
done

if [ ! -f "$out/needed-1000x1000.tar" ]; then
    mkdir -p "$out"
    echo 'int hostile(void) { return 22; }' > "$out/lib.c"
    gcc -shared -fPIC -O2 -Wl,-soname,libsparse.so -o "$out/lib.so" "$out/lib.c"
    python3 "$here/hostile_inputs.py" "$out" "$out/lib.so" || exit 2
fi
# Inputs added later, built on their own.
[ -f "$out/zstd-1G-elf.tar" ] || python3 "$here/hostile_inputs.py" "$out" "$out/lib.so" zstd || exit 2

cases=(
    "sparse-gnu-64G    validate sparse-gnu-64G.tar"
    "sparse-pax-3G     validate sparse-pax-3G.tar"
    "sparse-pax-64G    validate sparse-pax-64G.tar"
    "zstd-1G-elf       validate zstd-1G-elf.tar"
    "zstd-3G-elf       validate zstd-3G-elf.tar"
    "zstd-8G-elf       validate zstd-8G-elf.tar"
    "nested-index      files nested-index"
    "symlinks-400K     files symlinks-400K.tar"
    "symlinks-4K       files symlinks-4K.tar"
    "needed-1M         validate needed-1M.tar"
    "needed-2000x2000  validate needed-2000x2000.tar"
    "needed-1000x1000  validate needed-1000x1000.tar"
)

printf '%-18s' case
for bin in "$@"; do printf ' | %-28s' "$(basename "$(dirname "$bin")")/$(basename "$bin")"; done
printf '\n'
for line in "${cases[@]}"; do
    read -r name command input <<<"$line"
    [ -n "${CASES:-}" ] && ! grep -qE "$CASES" <<<"$name" && continue
    printf '%-18s' "$name"
    for bin in "$@"; do
        log=$(mktemp)
        extra=(--no-cache)
        [ "$command" = files ] && extra=()
        ( ulimit -v "$mem_kb"; /usr/bin/time -v -o "$log" timeout "${TIMEOUT:-600}" "$bin" "$command" --workers 1 \
            "${extra[@]}" "$out/$input" >/dev/null 2>"$log.err"; )
        rc=$(awk -F': ' '/Exit status/ {print $2}' "$log")
        rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}' "$log")
        wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$log")
        printf ' | rc %-2s %7s MB %10s s' "$rc" "$rss" "$wall"
        [ -n "${VERBOSE:-}" ] && { echo; sed 's/^/    /' "$log.err" | cut -c1-200 | head -3; }
        rm -f "$log" "$log.err"
    done
    printf '\n'
done
