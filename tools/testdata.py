#!/usr/bin/env python3
"""Builds testdata/<pkg>.jar from each javasrc/<pkg>/ with javac, deterministically (`make testdata`).

Every subdirectory of javasrc/ is one package and one jar. Sources are compiled with
`javac --release 8 -g -nowarn` plus the options of an optional javasrc/<pkg>/javac.args, and
the class files are packed into a jar whose bytes depend only on them: entries sorted by name,
timestamps fixed at 1980-01-01 00:00, no compression, mode 0644. A jar is rewritten only when
its bytes change. Without javac the committed jars are used and nothing happens; a package
javac rejects is reported and keeps its committed jar.
usage: tools/testdata.py [javasrc-dir [testdata-dir]]
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

# DOS date of 1980-01-01 and time 00:00:00, the earliest a zip entry can record.
DOS_DATE, DOS_TIME = (0 << 9) | (1 << 5) | 1, 0
# Version 1.0 needed to extract a stored entry; made by Unix (3), version 1.0.
VERSION_NEEDED, VERSION_MADE_BY = 10, (3 << 8) | 10
# A regular file with mode 0644, in the high half of the external attributes.
EXTERNAL_ATTRS = (0o100644) << 16


def jar_bytes(entries):
    """The bytes of a stored zip holding `entries`, a list of (name, bytes), in that order."""
    out, central = bytearray(), bytearray()
    for name, data in entries:
        raw = name.encode("utf-8")
        crc = zlib.crc32(data) & 0xFFFFFFFF
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, VERSION_NEEDED, 0, 0, DOS_TIME, DOS_DATE,
                           crc, len(data), len(data), len(raw), 0)
        out += raw + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, VERSION_MADE_BY, VERSION_NEEDED, 0, 0,
                               DOS_TIME, DOS_DATE, crc, len(data), len(data), len(raw), 0, 0, 0, 0,
                               EXTERNAL_ATTRS, offset)
        central += raw
    start = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), start, 0)
    return bytes(out)


def files_under(root, suffix):
    """The files below `root` whose name ends with `suffix`, sorted by path components."""
    found = [Path(d) / f for d, _, fs in os.walk(root) for f in fs if f.endswith(suffix)]
    return sorted(found, key=lambda p: p.parts)


def build_jar(pkg, testdata):
    """Compiles one package and writes its jar if the bytes changed; returns an error or None."""
    sources = files_under(pkg, ".java")
    if not sources:
        return None
    with tempfile.TemporaryDirectory(prefix="uberlazy-javac-") as classes:
        cmd = ["javac", "--release", "8", "-g", "-nowarn", "-d", classes]
        args = pkg / "javac.args"
        if args.is_file():
            cmd += args.read_text().split()
        cmd += [str(s) for s in sources]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            return "javac failed: " + res.stderr
        entries = sorted(
            (p.relative_to(classes).as_posix(), p.read_bytes()) for p in files_under(Path(classes), ".class")
        )
    data = jar_bytes(entries)
    jar = testdata / (pkg.name + ".jar")
    if jar.is_file() and jar.read_bytes() == data:
        return None
    testdata.mkdir(parents=True, exist_ok=True)
    tmp = jar.with_name(jar.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, jar)
    print(f"wrote {jar}")
    return None


def main():
    javasrc = Path(sys.argv[1] if len(sys.argv) > 1 else "javasrc")
    testdata = Path(sys.argv[2] if len(sys.argv) > 2 else "testdata")
    if shutil.which("javac") is None or subprocess.run(["javac", "-version"], capture_output=True).returncode != 0:
        print("javac not found: using the committed testdata jars", file=sys.stderr)
        return
    if not javasrc.is_dir():
        return
    for pkg in sorted((p for p in javasrc.iterdir() if p.is_dir()), key=lambda p: p.parts):
        err = build_jar(pkg, testdata)
        if err:
            print(f"warning: testdata jar for {pkg}: {err}", file=sys.stderr)


if __name__ == "__main__":
    main()
