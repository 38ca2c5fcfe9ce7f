#!/usr/bin/env bash
# Installs, with apt-get, whatever uberlazy needs that this machine lacks. Idempotent and
# quiet when everything is present; non-interactive (works on CI with no stdin).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

need=()
[ -e /usr/include/z3.h ] || need+=(libz3-dev)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
[ -e /usr/share/java/junit-platform-console-standalone.jar ] || need+=(junit5)
[ -e /usr/share/java/junit4.jar ] || need+=(junit4)
[ -e /usr/share/java/org.jacoco.core.jar ] || need+=(libjacoco-java)
[ -e /usr/share/java/commons-lang3.jar ] || need+=(libcommons-lang3-java)
[ -e /usr/share/java/guava.jar ] || need+=(libguava-java)
[ -e /usr/share/java/commons-collections4.jar ] || need+=(libcommons-collections4-java)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
[ -x /usr/bin/time ] || need+=(time)

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "deps: installing ${need[*]}" >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
