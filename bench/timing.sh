# Sourced by the bench scripts.
# best_time CMD…: "wall cpu" seconds of the fastest of $repeat runs of CMD,
# output discarded. CPU time (user + sys, children included) is printed too: on
# a shared, loaded machine it says more about a decoder's cost than wall time.
# $before_each, when set, runs untimed before each run.
best_time() {
    local best="" line i
    for ((i = 0; i < ${repeat:-1}; i++)); do
        ${before_each:-:}
        line=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
        line=$(echo "$line" | awk '{ printf "%.3f %.3f", $1, $2 + $3 }')
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
    done
    echo "$best"
}
