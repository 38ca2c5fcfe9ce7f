#!/usr/bin/env python3
"""Real library code as a user runs it: 16 targets of java.util and commons-collections4.

usage: tools/realcode.py [--out results/realcode] [--targets pkg.C#m(desc),...]
       tools/realcode.py --classes [--out results/realcode]
       tools/realcode.py --sweep [--out results/realcode-sweep]

For each target: `uberlazy gen --strategy uber --time-limit T` with only the library's jar on
--cp (the JDK comes from the installed JDK), then tools/run-junit.sh on the emitted tests
(with the JVM options gen wrote). Records lowered/total methods of the class, traces, tests
emitted, whether they compile, tests passed and failed, time, and the cut reasons.
T is REALCODE_TIME_LIMIT (default 60 s); UBERLAZY names the binary; REALCODE_GEN_FLAGS adds gen
flags. `found` counts the tests whose call returns an object of the input (for a map's get: a
present key); `largest` is, over the tests, the most input objects a test builds field by field
besides the receiver (a structure of >= 2 elements needs 3 or more with its nodes) or the most
calls before the one under test of a test whose input is built by calls (gen's default
`--inputs auto` mixes both; `--inputs api` has only the second kind, whose `found` counts the
tests whose result is an object). `--sweep` runs `gen CLASS` on every class of the targets with every
strategy (SWEEP_TIME_LIMIT per method, default 2 s) and lists the methods that end with an
error instead of tests or cut traces: there should be none. The java.util jar is
built from the installed JDK's jmods/java.base.jmod (java/util/*.class); commons-collections4
is Debian's /usr/share/java/commons-collections4.jar. Writes <out>.csv and <out>.md.
Then (or alone with `--classes`) whole classes: `gen CLASS` (REALCODE_CLASS_TIME_LIMIT, default 90 s a class)
on nine classes of commons-collections4, guava and commons-lang3, their tests run under JaCoCo: tests,
tests built by calls, lines over 150 characters, branch coverage of the class and the abstract parents
whose code it runs. Writes <out>-classes.csv and a section at the end of <out>.md.
"""

import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

UBERLAZY = os.environ.get("UBERLAZY", "target/release/uberlazy")
LIMIT = int(os.environ.get("REALCODE_TIME_LIMIT", "60"))
GEN_FLAGS = os.environ.get("REALCODE_GEN_FLAGS", "").split()
CC4 = "/usr/share/java/commons-collections4.jar"
UTIL_JAR = "target/realcode/java-util.jar"
CC = "org.apache.commons.collections4."
TARGETS = [
    ("java.util.LinkedList#add(Ljava/lang/Object;)Z", UTIL_JAR),
    ("java.util.LinkedList#remove(Ljava/lang/Object;)Z", UTIL_JAR),
    ("java.util.LinkedList#indexOf(Ljava/lang/Object;)I", UTIL_JAR),
    ("java.util.ArrayDeque#addFirst(Ljava/lang/Object;)V", UTIL_JAR),
    ("java.util.ArrayList#add(Ljava/lang/Object;)Z", UTIL_JAR),
    ("java.util.HashMap#get(Ljava/lang/Object;)Ljava/lang/Object;", UTIL_JAR),
    ("java.util.TreeMap#get(Ljava/lang/Object;)Ljava/lang/Object;", UTIL_JAR),
    ("java.util.TreeMap#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", UTIL_JAR),
    ("java.util.TreeMap#remove(Ljava/lang/Object;)Ljava/lang/Object;", UTIL_JAR),
    (CC + "list.TreeList#add(ILjava/lang/Object;)V", CC4),
    (CC + "list.TreeList#get(I)Ljava/lang/Object;", CC4),
    (CC + "list.CursorableLinkedList#add(Ljava/lang/Object;)Z", CC4),
    (CC + "map.Flat3Map#put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", CC4),
    (CC + "map.Flat3Map#get(Ljava/lang/Object;)Ljava/lang/Object;", CC4),
    (CC + "map.LRUMap#get(Ljava/lang/Object;)Ljava/lang/Object;", CC4),
    (CC + "trie.PatriciaTrie#get(Ljava/lang/Object;)Ljava/lang/Object;", CC4),
]
FIELDS = ["target", "lowered", "methods", "traces", "tests", "by_calls", "compiles", "passed", "failed", "found", "largest",
          "time_s", "error", "cuts"]
STRATEGIES = ["lazy", "lazier", "uber", "pose"]
CLASS_LIMIT = int(os.environ.get("REALCODE_CLASS_TIME_LIMIT", "90"))
GUAVA = "/usr/share/java/guava.jar"
LANG3 = "/usr/share/java/commons-lang3.jar"
J = "/usr/share/java"
JACOCO_CP = ":".join(f"{J}/{j}.jar" for j in ("org.jacoco.core", "asm", "asm-commons", "asm-tree"))
# Whole classes (issue #72's nine): the class and the abstract parents in the jar whose code it runs.
CLASSES = [
    (CC + "list.SetUniqueList", CC4, [CC + "list.AbstractSerializableListDecorator", CC + "list.AbstractListDecorator",
                                      CC + "collection.AbstractCollectionDecorator"]),
    (CC + "map.ListOrderedMap", CC4, [CC + "map.AbstractMapDecorator"]),
    (CC + "bag.TreeBag", CC4, [CC + "bag.AbstractMapBag"]),
    (CC + "queue.CircularFifoQueue", CC4, []),
    (CC + "trie.PatriciaTrie", CC4, [CC + "trie.AbstractPatriciaTrie", CC + "trie.AbstractBitwiseTrie"]),
    (CC + "comparators.ComparatorChain", CC4, []),
    ("com.google.common.primitives.Ints", GUAVA, []),
    ("com.google.common.math.IntMath", GUAVA, []),
    ("org.apache.commons.lang3.math.Fraction", LANG3, []),
]
CLASS_FIELDS = ["class", "tests", "by_calls", "compiles", "passed", "failed", "long_lines", "branches", "branch_pct",
                "time_s", "error"]


def java_home():
    java = shutil.which("java")
    return os.path.dirname(os.path.dirname(os.path.realpath(java))) if java else None


def build_util_jar():
    if os.path.exists(UTIL_JAR):
        return
    os.makedirs(os.path.dirname(UTIL_JAR), exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        jmod = os.path.join(java_home(), "jmods", "java.base.jmod")
        subprocess.run(["jmod", "extract", "--dir", d, jmod], check=True)
        classes = os.path.join(d, "classes")
        files = sorted(os.path.relpath(f, classes) for f in glob.glob(os.path.join(classes, "java/util/*.class")))
        subprocess.run(["jar", "cf", os.path.abspath(UTIL_JAR)] + files, cwd=classes, check=True)


def lowered(cp, cls):
    out = subprocess.run([UBERLAZY, "classes", "--cp", cp], capture_output=True, text=True).stdout
    ok = total = 0
    inside = False
    for line in out.splitlines():
        if not line.startswith(" "):
            inside = line.split()[-1] == cls if line.split() else False
        elif inside:
            status = line.split()[0]
            if status in ("ok", "FAILED"):
                total += 1
                ok += status == "ok"
    return ok, total


def run_target(spec, cp):
    cls = spec.split("#")[0]
    row = {k: "" for k in FIELDS}
    row["target"] = spec
    row["lowered"], row["methods"] = lowered(cp, cls)
    out = tempfile.mkdtemp(prefix="realcode-")
    start = time.monotonic()
    g = subprocess.run([UBERLAZY, "gen", "--cp", cp, spec, "--strategy", "uber", "--time-limit", str(LIMIT),
                        *GEN_FLAGS, "--out", out], capture_output=True, text=True)
    row["time_s"] = round(time.monotonic() - start, 1)
    m = re.search(r": (\d+) tests from (\d+) traces", g.stdout)
    row["tests"], row["traces"] = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    cuts = re.findall(r"traces skipped, cut by ([^:]+(?:\([^)]*\))?)", g.stdout)
    row["cuts"] = "; ".join(sorted(set(c.strip() for c in cuts)))
    if g.returncode != 0:
        row["error"] = (g.stderr.strip().splitlines() or [""])[-1][:200]
    found = largest = by_calls = 0
    for src in glob.glob(os.path.join(out, "**", "*Test.java"), recursive=True):
        with open(src) as f:
            text = f.read()
        for body in text.split("@Test")[1:]:
            if re.search(r"^\s+\S+ r = new ", body, re.M):  # input built by calls
                by_calls += 1
                found += len(re.findall(r"Heap\.className\(result\)", body))
                calls = len(re.findall(r"^\s+r\.\w+\(", body.split(" result = ")[0], re.M))
                # A void call under test is one of the `r.` lines.
                largest = max(largest, calls - (" result = " not in body))
            else:
                found += len(re.findall(r"assertSame\(o\d+, result\);", body))
                made = re.findall(r"^\s+\S+ o(\d+) = ", body, re.M)
                largest = max(largest, len([m for m in made if m != "0"]))
    row["found"], row["largest"], row["by_calls"] = found, largest, by_calls
    if row["tests"]:
        run_junit(row, out, cp, os.environ)
    shutil.rmtree(out, ignore_errors=True)
    return row


def run_junit(row, out, cp, env):
    """Compiles and runs the tests in `out`: whether they compile, how many pass and fail, into `row`."""
    r = subprocess.run(["tools/run-junit.sh", out, cp], capture_output=True, text=True, env=env)
    text = r.stdout + r.stderr
    passed = re.search(r"(\d+) tests successful", text)
    failed = re.search(r"(\d+) tests failed", text)
    row["compiles"] = "yes" if passed else "no"
    row["passed"] = int(passed.group(1)) if passed else 0
    row["failed"] = int(failed.group(1)) if failed else 0


def run_class(cls, cp, parents, work):
    """`gen CLASS` with the class time limit, its tests under JaCoCo, branch coverage of the class and parents."""
    row = {k: "" for k in CLASS_FIELDS}
    row["class"] = cls
    out = tempfile.mkdtemp(prefix="realcode-class-")
    stats = os.path.join(work, cls + ".stats.json")
    start = time.monotonic()
    g = subprocess.run([UBERLAZY, "gen", "--cp", cp, cls, "--time-limit", str(CLASS_LIMIT), *GEN_FLAGS,
                        "--stats", stats, "--out", out], capture_output=True, text=True)
    row["time_s"] = round(time.monotonic() - start, 1)
    if g.returncode not in (0, 3):
        row["error"] = (g.stderr.strip().splitlines() or [""])[-1][:200]
    entries = json.load(open(stats)) if os.path.exists(stats) else []
    row["tests"] = sum(e.get("tests", 0) for e in entries)
    row["by_calls"] = sum(e.get("tests_by_calls", 0) for e in entries)
    sources = glob.glob(os.path.join(out, "**", "*.java"), recursive=True)
    row["long_lines"] = sum(1 for src in sources for line in open(src) if len(line.rstrip("\n")) > 150)
    exec_file = os.path.join(work, cls + ".exec")
    if os.path.exists(exec_file):
        os.remove(exec_file)
    if row["tests"]:
        env = dict(os.environ, JACOCO_EXEC=exec_file, JACOCO_INCLUDES=cls.rsplit(".", 1)[0] + ".*")
        run_junit(row, out, cp, env)
    covered = total = 0
    if os.path.exists(exec_file):
        report = os.path.join(work, "report")
        if not os.path.isdir(report):
            subprocess.run(["javac", "-nowarn", "-d", report, "-cp", JACOCO_CP, "tools/java/CoverageReport.java"],
                           check=True)
        text = subprocess.run(["java", "-cp", f"{report}:{JACOCO_CP}", "CoverageReport", exec_file, cp],
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 2 and cells[0] in [cls] + parents and "/" in cells[1]:
                c, t = (int(x) for x in cells[1].split("/"))
                covered, total = covered + c, total + t
    row["branches"] = f"{covered}/{total}"
    row["branch_pct"] = round(100 * covered / total) if total else ""
    shutil.rmtree(out, ignore_errors=True)
    return row


def classes_markdown(rows):
    out = [
        "",
        "## Whole classes",
        "",
        f"`gen --cp JAR CLASS --time-limit {CLASS_LIMIT}" + "".join(f" {x}" for x in GEN_FLAGS) + "` (default flags "
        "otherwise: every public method, inherited ones too, inputs built",
        "by calls where a sequence reaches a path), then the tests under JaCoCo. `branches`: JaCoCo's branch coverage "
        "of the class",
        "with the abstract parents in the jar whose code it runs (SetUniqueList: AbstractSerializableListDecorator,",
        "AbstractListDecorator, AbstractCollectionDecorator; ListOrderedMap: AbstractMapDecorator; TreeBag:",
        "AbstractMapBag; PatriciaTrie: AbstractPatriciaTrie, AbstractBitwiseTrie). `by calls`: tests whose input is",
        "built by a constructor or factory and public calls. `long`: emitted lines over 150 characters.",
        "",
        "| class | tests | by calls | compile | passed | failed | long | branches | branch % | time s | error |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        out.append(f"| `{r['class']}` | {r['tests']} | {r['by_calls']} | {r['compiles'] or '-'} | {r['passed']} | "
                   f"{r['failed']} | {r['long_lines']} | {r['branches']} | {r['branch_pct']} | {r['time_s']} | "
                   f"{r['error']} |")
    tests = sum(int(r["tests"] or 0) for r in rows)
    passed = sum(int(r["passed"] or 0) for r in rows)
    covered = sum(int(r["branches"].split("/")[0]) for r in rows if r["branches"])
    total = sum(int(r["branches"].split("/")[1]) for r in rows if r["branches"])
    pct = f" ({round(100 * covered / total)}%)" if total else ""
    out += ["", f"{passed} of {tests} tests pass; {covered} of {total} branches covered{pct}."]
    return "\n".join(out)


def markdown(rows):
    out = [
        "# Real library code: 16 targets of java.util and commons-collections4",
        "",
        f"Generated by `make realcode` (tools/realcode.py): `gen --strategy uber --time-limit {LIMIT}"
        + "".join(f" {x}" for x in GEN_FLAGS) + "`, default",
        "bounds otherwise, only the library's jar on `--cp` (java.util: a jar of JDK 17's java/util/*.class built",
        "from its jmods; commons-collections4 4.2 from Debian), then `tools/run-junit.sh` with the JVM options gen",
        "wrote. `lowered` is of the target's class. `by calls`: tests whose input is built by a constructor and",
        "public calls. `found`: tests whose call returns an object of the input (a",
        "present key); `largest`: the most input objects a test builds field by field besides the receiver, or the",
        "most calls before the one under test of a test whose input is built by calls (`--inputs auto`: per path,",
        "by calls when a sequence of public calls reaches the path, else field by field).",
        "",
        "| target | lowered | traces | tests | by calls | compile | passed | failed | found | largest | time s | error / cut reasons |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        why = "; ".join(x for x in (r["error"], r["cuts"]) if x).replace("|", "\\|")
        out.append(f"| `{r['target']}` | {r['lowered']}/{r['methods']} | {r['traces']} | {r['tests']} | {r['by_calls']} | "
                   f"{r['compiles'] or '-'} | {r['passed']} | {r['failed']} | {r['found']} | {r['largest']} | "
                   f"{r['time_s']} | {why} |")
    tests = sum(int(r["tests"] or 0) for r in rows)
    passed = sum(int(r["passed"] or 0) for r in rows)
    wrote = sum(1 for r in rows if r["tests"])
    compiled = sum(1 for r in rows if r["compiles"] == "yes")
    out += ["", f"{wrote} of {len(rows)} targets wrote tests, {compiled} of them compile; "
                f"{passed} of {tests} emitted tests pass."]
    return "\n".join(out)


def sweep(out):
    """Every method of every target's class, every strategy: the methods that end in an error."""
    limit = os.environ.get("SWEEP_TIME_LIMIT", "2")
    # PatriciaTrie declares no method of its own: its methods are AbstractPatriciaTrie's.
    extra = [(CC + "trie.AbstractPatriciaTrie", CC4)]
    classes = sorted({(spec.split("#")[0], cp) for spec, cp in TARGETS} | set(extra))
    rows = []
    for cls, cp in classes:
        for strategy in STRATEGIES:
            d = tempfile.mkdtemp(prefix="sweep-")
            start = time.monotonic()
            # gen's --time-limit is shared by the class's methods: SWEEP_TIME_LIMIT each.
            total = str(int(limit) * max(1, lowered(cp, cls)[1]))
            g = subprocess.run([UBERLAZY, "gen", "--cp", cp, cls, "--strategy", strategy, "--time-limit", total,
                                "--out", d], capture_output=True, text=True)
            shutil.rmtree(d, ignore_errors=True)
            methods = len(re.findall(r"^\S+#\S+: ", g.stdout, re.M))
            errors, method = [], ""
            for line in g.stdout.splitlines():
                if re.match(r"^\S+#\S+: ", line):
                    method = line.split(": ")[0]
                if ": no tests: " in line:
                    errors.append(line)
                elif "no inputs built by calls (" in line:  # the call-built run of --inputs auto
                    errors.append(f"{method}: {line.strip()}")
            panicked = "panicked" in g.stderr
            secs = round(time.monotonic() - start, 1)
            print(f"{cls} {strategy}: {methods} methods, {len(errors)} errors, {secs} s", file=sys.stderr)
            rows.append((cls, strategy, methods, errors, panicked, secs))
    lines = ["# Every method of the real targets' classes, every strategy", "",
             f"Generated by `tools/realcode.py --sweep`: `gen CLASS --strategy S` ({limit} s per method) on the classes",
             "of results/realcode.md. A method either gets tests or has its traces cut with a named reason; an",
             "error (the run of that method stops, or with gen's default `--inputs auto` its run on inputs built by",
             "calls does) is listed here.", "",
             "| class | strategy | methods | errors | time s |", "|---|---|---:|---:|---:|"]
    for cls, strategy, methods, errors, panicked, secs in rows:
        lines.append(f"| `{cls}` | {strategy} | {methods} | {len(errors) + panicked} | {secs} |")
    lines += ["", "Errors:", ""]
    listed = [e for r in rows for e in r[3]] + [f"{r[0]} {r[1]}: panicked" for r in rows if r[4]]
    lines += [f"- {e[:300]}" for e in listed] or ["none"]
    with open(out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}.md", file=sys.stderr)


def main():
    args = sys.argv[1:]
    out, targets = "results/realcode", TARGETS
    if args[:1] == ["--classes"]:
        # Only the whole-class table: appended to (or replacing that of) <out>.md.
        out = args[2] if args[1:2] == ["--out"] else out
        return write_classes(out)
    if args[:1] == ["--sweep"]:
        out = args[2] if args[1:2] == ["--out"] else "results/realcode-sweep"
        build_util_jar()
        return sweep(out)
    while args:
        if args[0] == "--out":
            out = args[1]
        elif args[0] == "--targets":
            wanted = args[1].split(",")
            targets = [t for t in TARGETS if t[0] in wanted]
        else:
            sys.exit(__doc__)
        args = args[2:]
    build_util_jar()
    rows = []
    for spec, cp in targets:
        r = run_target(spec, cp)
        print(f"{spec}: {r['tests']} tests, compile {r['compiles'] or '-'}, {r['passed']} passed, "
              f"{r['failed']} failed, {r['time_s']} s {r['error']}", file=sys.stderr)
        rows.append(r)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    with open(out + ".md", "w") as f:
        f.write(markdown(rows) + "\n")
    print(f"wrote {out}.csv and {out}.md", file=sys.stderr)
    write_classes(out)


def write_classes(out):
    """Runs the whole classes and writes <out>-classes.csv and the table at the end of <out>.md."""
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for cls, cp, parents in CLASSES:
            r = run_class(cls, cp, parents, work)
            print(f"{cls}: {r['tests']} tests ({r['by_calls']} by calls), {r['passed']} passed, {r['failed']} failed, "
                  f"branches {r['branches']}, {r['time_s']} s {r['error']}", file=sys.stderr)
            rows.append(r)
    with open(out + "-classes.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CLASS_FIELDS)
        w.writeheader()
        w.writerows(rows)
    md = open(out + ".md").read() if os.path.exists(out + ".md") else ""
    md = md.split("\n## Whole classes\n")[0].rstrip("\n") + "\n"
    with open(out + ".md", "w") as f:
        f.write(md + classes_markdown(rows) + "\n")
    print(f"wrote {out}-classes.csv and {out}.md", file=sys.stderr)


if __name__ == "__main__":
    main()
