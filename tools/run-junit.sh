#!/usr/bin/env bash
# Compiles every .java under a directory of emitted tests and runs them on the JVM.
# usage: tools/run-junit.sh <test-src-dir> <subject-classpath> [5|4]
# <test-src-dir> may be the root of a `gen --layout maven` tree: its src/test/java is used.
# With JACOCO_EXEC=<file> (and JACOCO_INCLUDES=<pattern>), runs under the JaCoCo agent
# built by `make jacoco-agent`; VALIDITY_FILE=<file> collects `gen --validity` records;
# REPORTS_DIR=<dir> keeps JUnit 5's XML report; JVM_OPTIONS adds options to the JVM that runs
# the tests (`-ea` for assertions); the JVM options gen wrote to
# <test-src-dir>/uberlazy/runtime/java-options.txt and java-options/*.txt are applied. Exits non-zero if compilation or any test fails.
set -euo pipefail
src=$1; cp=$2; ver=${3:-5}
if [ -d "$src/src/test/java" ]; then src=$src/src/test/java; fi
J=/usr/share/java
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ "$ver" = 4 ]; then
    libs=$J/junit4.jar:$J/hamcrest-core.jar
else
    libs=$J/junit-jupiter-api.jar:$J/apiguardian-api.jar:$J/opentest4j.jar
fi
find "$src" -name '*.java' | sort > "$out/sources"
javac -nowarn -d "$out/classes" -cp "$cp:$libs" @"$out/sources"
agent=()
if [ -n "${JACOCO_EXEC:-}" ]; then
    agent=("-javaagent:target/tools/jacocoagent.jar=destfile=$JACOCO_EXEC,append=true,includes=${JACOCO_INCLUDES:-*}")
fi
if [ -n "${VALIDITY_FILE:-}" ]; then
    agent+=("-Duberlazy.validity=$VALIDITY_FILE")
fi
if [ -n "${JVM_OPTIONS:-}" ]; then
    read -r -a extra <<< "$JVM_OPTIONS"
    agent+=("${extra[@]}")
fi
# The JVM options `gen` listed for these tests (--add-opens for JDK fields set by reflection):
# one file for a run in one process, one per class for a whole-library run's workers.
if [ -f "$src/uberlazy/runtime/java-options.txt" ]; then
    agent+=("@$src/uberlazy/runtime/java-options.txt")
fi
if [ -d "$src/uberlazy/runtime/java-options" ]; then
    while IFS= read -r f; do agent+=("@$f"); done < <(find "$src/uberlazy/runtime/java-options" -name '*.txt' | sort)
fi
reports=()
if [ -n "${REPORTS_DIR:-}" ]; then
    reports=(--reports-dir "$REPORTS_DIR")
fi
if [ "$ver" = 4 ]; then
    classes=$(cd "$out/classes" && find . -name '*Test.class' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort)
    java "${agent[@]}" -cp "$out/classes:$cp:$libs" org.junit.runner.JUnitCore $classes
else
    java "${agent[@]}" -jar $J/junit-platform-console-standalone.jar --disable-banner --details=summary \
        --fail-if-no-tests "${reports[@]}" -cp "$out/classes:$cp" --scan-classpath "$out/classes"
fi
