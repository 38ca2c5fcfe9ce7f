#!/usr/bin/env bash
# Checks the data-flow invariants of ARCHITECTURE.md with grep: stages never import later
# stages, and only src/solver/z3.rs imports z3.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() { # dir pattern why
    local hits
    local dirs=()
    for d in $1; do [ -d "$d" ] && dirs+=("$d"); done
    [ ${#dirs[@]} -eq 0 ] && return 0
    hits=$(grep -rnE "$2" "${dirs[@]}" --include=*.rs || true)
    if [ -n "$hits" ]; then
        echo "layer violation ($3):"; echo "$hits"; fail=1
    fi
}
check "src/machine src/heap src/term" '(^|[^:a-z_])z3::|use z3|use clap|crate::(junit|cli|report)' "the machine and heaps never import z3, clap, reports or the emitter"
check "src/classfile src/ir src/lower" 'crate::(machine|heap|solver|term|report|junit|cli|run)' "the frontend never sees later stages"
check "src/junit" 'crate::(machine::(explore|exec|control)|heap::(lazy|uber|pose|lazier)|solver::z3)' "the emitter sees only traces and the class table"
z3=$(grep -rlE '(^|[^:a-z_])z3::|use z3' src --include=*.rs | grep -v '^src/solver/z3.rs$' || true)
if [ -n "$z3" ]; then echo "only src/solver/z3.rs may import z3, but: $z3"; fail=1; fi
if [ $fail -eq 0 ]; then echo "layers: ok"; fi
exit $fail
