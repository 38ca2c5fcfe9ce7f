#!/usr/bin/env bash
# Checks the data-flow invariants of ARCHITECTURE.md with grep: stages never import later
# stages, the heap strategies never import each other, the CLI reaches the library only
# through the pipeline (session) and the whole-library runner (which only the CLI uses),
# only src/solver/z3/ imports z3, and no two folders of
# src/ and no two files of one folder import each other (tools/import-cycles.py).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() { # dirs pattern why
    local hits
    local dirs=()
    for d in $1; do [ -e "$d" ] && dirs+=("$d"); done
    [ ${#dirs[@]} -eq 0 ] && return 0
    hits=$(grep -rnE "$2" "${dirs[@]}" --include=*.rs | grep -vE '^[^:]+:[0-9]+:\s*//' || true)
    if [ -n "$hits" ]; then
        echo "layer violation ($3):"; echo "$hits"; fail=1
    fi
}
later='crate::(junit|cli|report|session|inputs)'
check "src/machine src/heap src/term" "(^|[^:a-z_])z3::|use z3|use clap|$later" \
    "the machine and heaps never import z3, clap, reports, the emitter or the pipeline"
check "src/solver" "use clap|$later" "the solver never imports clap, reports, the emitter or the pipeline"
check "src/classfile src/ir src/lower" 'crate::(machine|heap|solver|term|report|junit|cli|session|inputs)' \
    "the frontend never sees later stages"
check "src/models" 'crate::' "the JDK models are knowledge only: they import nothing of the crate"
check "src/inputs" 'crate::(machine|solver|report|junit|cli|session)|heap::(graph|lazy|lazier|uber|pose)' \
    "input construction sees only concrete heaps and the class table"
check "src/junit" 'crate::(machine::(explore|exec|control)|heap::(graph|lazy|uber|pose|lazier)|solver|session|cli)' \
    "the emitter sees only traces, inputs and the class table"
check "src/cli" 'crate::(classfile|lower|ir|machine|heap|solver|term|junit|models|inputs)' \
    "the CLI reaches the library only through the pipeline (session), the runner, config, budget, report and output"
check "src/runner" 'crate::(classfile|lower|ir|machine|heap|solver|term|junit|models|inputs|report|cli)' \
    "the whole-library runner reaches the library only through the pipeline (session), budget and output"
runner=$(grep -rlE 'crate::runner' src --include=*.rs | grep -vE '^src/(cli|runner)/' || true)
if [ -n "$runner" ]; then echo "only src/cli/ may use the whole-library runner, but: $runner"; fail=1; fi
check "src/heap/mod.rs src/heap/concrete.rs src/heap/objects.rs src/heap/graph" 'heap::(lazy|lazier|uber|pose)\b' \
    "what all strategies share never imports a strategy"
for s in lazy lazier uber pose; do
    others=$(echo lazy lazier uber pose | tr ' ' '\n' | grep -vx "$s" | paste -sd'|')
    check "src/heap/$s" "heap::($others)\b|super::super::($others)\b" "heap strategy folders never import each other"
done
z3=$(grep -rlE '(^|[^:a-z_])z3::|use z3' src --include=*.rs | grep -vE '^src/solver/z3/' || true)
if [ -n "$z3" ]; then echo "only src/solver/z3/ may import z3, but: $z3"; fail=1; fi
python3 tools/import-cycles.py || fail=1
if [ $fail -eq 0 ]; then echo "layers: ok"; fi
exit $fail
