#!/usr/bin/env bash
# Builds a JaCoCo agent jar with a Premain-Class from Debian's libjacoco-java (whose own
# agent jar lacks one): ENVIRONMENT.md's recipe. usage: tools/jacoco-agent.sh <out.jar>
set -euo pipefail
out=$1
[ -s "$out" ] && exit 0
J=/usr/share/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/x" "$(dirname "$out")"
for j in org.jacoco.agent.rt.jar org.jacoco.core.jar asm.jar asm-commons.jar asm-tree.jar; do
    (cd "$work/x" && unzip -qo "$J/$j")
done
rm -rf "$work/x/META-INF/MANIFEST.MF" "$work/x/META-INF/"*.SF "$work/x/META-INF/"*.RSA "$work/x/META-INF/"*.DSA
printf 'Premain-Class: org.jacoco.agent.rt.internal.PreMain\n' > "$work/manifest"
jar cfm "$out.tmp" "$work/manifest" -C "$work/x" .
mv "$out.tmp" "$out"
