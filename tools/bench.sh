#!/usr/bin/env bash
# Whole-process wall time, traces and solver queries of each paper sample with each
# strategy, in the release build. usage: tools/bench.sh  (prints a markdown table)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/uberlazy
echo "| method | strategy | traces | paths | solver queries | wall ms |"
echo "|---|---|---:|---:|---:|---:|"
for m in samples.Container#swap samples.Triple#sum samples.Chain#hasNull4 samples.Chain#hasNull10; do
    for s in lazy lazier uber pose; do
        start=$(date +%s%N)
        out=$($BIN run --cp testdata/samples.jar "$m" --strategy "$s" --json)
        end=$(date +%s%N)
        read -r traces paths queries < <(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["traces"], d["paths"], d["solver_queries"])')
        echo "| $m | $s | $traces | $paths | $queries | $(( (end - start) / 1000000 )) |"
    done
done
