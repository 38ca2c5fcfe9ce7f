#!/usr/bin/env bash
# JaCoCo branch and line coverage of the subject classes by the tests `gen` emits, per
# class. usage: tools/coverage.sh [strategy] [jar:Class,Class ...]
# COVERAGE_DEPTH sets --max-depth (default 24: deep enough for hasNull10); GEN_FLAGS adds flags
# to every `gen` (e.g. "--inputs api", or "--precondition repOK").
# Default: all four strategies' tests together, for the samples, subjects and ops jars.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${UBERLAZY:-$PWD/target/release/uberlazy}
STRATS=${1:-lazy,lazier,uber,pose}
shift || true
TARGETS=${*:-"samples:samples.Container,samples.Triple,samples.Chain subjects:subjects.Arith,subjects.Arrays,subjects.Circle,subjects.Counter,subjects.Holder,subjects.Node,subjects.Pose,subjects.Square ops:ops.IntOps,ops.Branches,ops.Objects,ops.ArrayOps,ops.Exceptions"}
J=/usr/share/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/report"
javac -nowarn -d "$work/report" -cp "$J/org.jacoco.core.jar:$J/asm.jar:$J/asm-commons.jar:$J/asm-tree.jar" tools/java/CoverageReport.java
for t in $TARGETS; do
    jar=${t%%:*}
    classes=${t#*:}
    exec="$work/$jar.exec"
    for s in ${STRATS//,/ }; do
        out="$work/tests-$jar-$s"
        # shellcheck disable=SC2086
        $BIN gen --cp "testdata/$jar.jar" ${classes//,/ } --strategy "$s" --out "$out" --max-depth "${COVERAGE_DEPTH:-24}" ${GEN_FLAGS:-} > /dev/null
        JACOCO_EXEC="$exec" JACOCO_INCLUDES="$jar.*" ./tools/run-junit.sh "$out" "testdata/$jar.jar" 5 > /dev/null
    done
    echo "== testdata/$jar.jar ($STRATS)"
    java -cp "$work/report:$J/org.jacoco.core.jar:$J/asm.jar:$J/asm-commons.jar:$J/asm-tree.jar" \
        CoverageReport "$exec" "testdata/$jar.jar"
done
