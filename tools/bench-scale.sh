#!/usr/bin/env bash
# hasNull with bound N = 4, 8, 16, 32, 64 (the POSE paper's Chain pattern) for every
# strategy: traces, solver queries and time. uber needs N + 2 traces; lazy grows
# quadratically. usage: tools/bench-scale.sh [N...]   (prints a markdown table)
# BENCH_SCALE_STRATEGIES picks the strategies (default: lazy lazier uber pose).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$PWD/target/release/uberlazy
NS=${*:-4 8 16 32 64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/scale"
{
    echo "package scale;"
    echo "public class ChainN {"
    echo "    ChainN next;"
    for n in $NS; do
        echo "    boolean hasNull$n() { ChainN s = next; int i = 1; while (s != null && i <= $n) { s = s.next; i = i + 1; } return s == null; }"
    done
    echo "}"
} > "$work/src/scale/ChainN.java"
javac --release 8 -g -d "$work/classes" "$work/src/scale/ChainN.java"
LIMIT=${BENCH_TIME_LIMIT:-120}
echo "| N | strategy | traces | cut | solver queries | time ms |"
echo "|---:|---|---:|---:|---:|---:|"
# Each row is the best of RUNS runs (default 3; counts are the same every run): the machine
# is shared, and a millisecond of noise is a large share of uber's times.
RUNS=${BENCH_SCALE_RUNS:-3}
for n in $NS; do
    for s in ${BENCH_SCALE_STRATEGIES:-lazy lazier uber pose}; do
        runs=()
        for _ in $(seq "$RUNS"); do
            # `compare --format json` carries the counts without the trace list.
            runs+=("$($BIN compare --cp "$work/classes" "scale.ChainN#hasNull$n" --strategies "$s" --format json \
                --max-depth $((2 * n + 4)) --max-objects $((n + 4)) --time-limit "$LIMIT")")
            # A run that hits the time limit is not repeated.
            echo "${runs[-1]}" | python3 -c "import json,sys; sys.exit(0 if json.load(sys.stdin)[0]['cut'] == 0 else 1)" || break
        done
        printf '%s\0' "${runs[@]}" | python3 -c "
import json, sys
rows = [json.loads(x)[0] for x in sys.stdin.read().split('\0') if x.strip()]
d = min(rows, key=lambda r: r['time_ms'])
print('| $n | $s | %d | %d | %d | %d |' % (d['traces'], d['cut'], d['solver_queries'], d['time_ms']))"
    done
done
