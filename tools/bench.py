#!/usr/bin/env python3
"""The SIR benchmark: every public method of a subject class x strategy x precondition.

usage: tools/bench.py class <Class> <out.csv>     one class (make runs these in parallel)
       tools/bench.py table <parts...>            merge parts into results/bench.{csv,md}
       tools/bench.py times [--repok] [--runs N] [--strategies S,..] [--classes C,..] [--csv FILE]
                                                  time_ms and paths of `run --json`, per method

`times` runs `uberlazy run --json` on every public method of the SIR classes with each strategy
(one process per run of a method with a strategy), prints per method the time_ms and
paths of each strategy, the totals, the slowest ten (method, strategy) pairs, and checks that
uber's total is at most lazy's, that no method takes uber more than 2 x lazy + 50 ms, that
sir.BinomialHeap#extractMin takes uber under 1 s (without a precondition), that POSE's total
is at most 2 x lazy's (with repOK), and that every strategy reports the same set of program
paths for every method. Without --repok: --max-depth BENCH_DEPTH; with --repok the bounds of the
repOK rows below. With --runs N each time is the median of N runs, the strategies of a method
taking turns run by run (a busy stretch of the machine falls on all of them). Exit status 1 when
a check fails.

For each strategy and precondition (`none`, `repOK`; and `api`, uber only: no precondition,
inputs built by calls) it runs `uberlazy gen` on the public
methods of sir.<Class> (repOK excluded) with `--stats` (traces, paths, ... per method) and
`--validity repOK` (each test records whether its input satisfies repOK), runs the tests
on the JVM under JaCoCo, and writes one CSV row per method with the columns of
results/bench.csv. Bounds, the same for every strategy and class: --max-depth BENCH_DEPTH
(default 10) on the `none` rows; on the `repOK` rows --max-depth BENCH_REPOK_DEPTH (default 50,
the tool's default), --max-objects BENCH_REPOK_OBJECTS (default 5: the receiver and four
nodes, or three nodes and the AATree sentinel) and the default --precondition-fuse
(BENCH_PRE_FUSE overrides it); BENCH_TIME_LIMIT (default 60 s) on all.
Without a precondition the inputs are unbounded and --max-depth is what keeps the exploration
finite (at 20 lazy's `AvlTree#insert` already runs into the time limit). With repOK the input
is bounded by its objects, as a heap scope bounds it in JBSE or a finitization in Korat: the
precondition's fork budget alone grows with the rules repOK checks per node (5 to 7 forks per
red-black or AA node), so a budget that admits the 4-node trees the red-black fix-up cases need
admits far bigger lists and search trees. The method must be free to run to its end on the
input (an AVL insert with its rotations takes about 30 decisions on a two-node tree).

`table` also reads the list of branches infeasible under repOK, results/infeasible.csv
(columns class, line, branches, reason; results/README.md says what the list is), and
reports each class's branch coverage with the precondition with those excluded, naming every
missed branch the list does not explain.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("UBERLAZY", os.path.join(ROOT, "target/release/uberlazy"))
JAR = os.path.join(ROOT, "testdata/sir.jar")
J = "/usr/share/java"
DEPTH = os.environ.get("BENCH_DEPTH", "10")
REPOK_DEPTH = os.environ.get("BENCH_REPOK_DEPTH", "50")
TIME_LIMIT = os.environ.get("BENCH_TIME_LIMIT", "60")
PRE_FUSE = os.environ.get("BENCH_PRE_FUSE")
FUSE = ["--precondition-fuse", PRE_FUSE] if PRE_FUSE else []
REPOK_OBJECTS = os.environ.get("BENCH_REPOK_OBJECTS", "5")
STRATEGIES = ["lazy", "lazier", "uber", "pose"]
PRECONDITIONS = ["none", "repOK", "api"]  # "api": no precondition, inputs built by calls
EXTRA = ["solver_ms", "branches", "missed", "prefixes", "pruned"]  # kept in the parts, not in results/bench.csv
COLUMNS = ["class", "method", "strategy", "precondition", "traces", "paths", "exceptional", "cut",
           "solver_queries", "time_ms", "peak_mb", "tests", "tests_passed", "valid_pct", "branch_cov_pct"]
JACOCO_CP = ":".join(f"{J}/{j}" for j in ["org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar"])


def progress(msg):
    if sys.stderr.isatty():
        print(msg, file=sys.stderr, flush=True)


def public_methods(cls):
    out = subprocess.run([BIN, "classes", "--cp", JAR], capture_output=True, text=True, check=True).stdout
    methods, inside = [], False
    for line in out.splitlines():
        if re.match(r"^\S.*class ", line):
            inside = line.split()[-1] == f"sir.{cls}"
            continue
        if inside and line.startswith("  ok") and " public " in f" {line} ":
            sig = line.split()[-1]
            name = sig.split("(")[0]
            if name not in ("<init>", "repOK"):
                methods.append(f"sir.{cls}#{sig}")
    return methods


def report_classes(work):
    """Compiles the JaCoCo reader once per run."""
    out = os.path.join(work, "report")
    if not os.path.isdir(out):
        subprocess.run(["javac", "-nowarn", "-d", out, "-cp", JACOCO_CP,
                        os.path.join(ROOT, "tools/java/CoverageReport.java")], check=True)
    return out


def branch_cov(work, exec_file, cls):
    """(branch %, covered, total, missed) of sir.<cls>; missed maps `line` to missed branches."""
    if not os.path.exists(exec_file):
        return 0.0, 0, 0, {}
    out = subprocess.run(["java", "-cp", f"{report_classes(work)}:{JACOCO_CP}", "CoverageReport", "--methods",
                          exec_file, JAR], capture_output=True, text=True).stdout
    pct, covered, total, missed = 0.0, 0, 0, {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 4:
            continue
        if cells[0] == f"sir.{cls}":
            pct = 0.0 if cells[2] == "n/a" else float(cells[2])
            covered, total = (int(x) for x in cells[1].split("/"))
        elif cells[0].startswith(f"sir.{cls}#"):
            for m in re.findall(r"(\d+)x(\d+)", cells[3]):
                missed[m[0]] = missed.get(m[0], 0) + int(m[1])
    return pct, covered, total, missed


def junit_results(reports):
    """(tests, passed) per test class from JUnit 5's XML report."""
    res = {}
    path = os.path.join(reports, "TEST-junit-jupiter.xml")
    if not os.path.exists(path):
        return res
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("classname", "")
        ok = case.find("failure") is None and case.find("error") is None
        t, p = res.get(name, (0, 0))
        res[name] = (t + 1, p + (1 if ok else 0))
    return res


def validity(path):
    """(valid, total) per method from `Heap.valid` records (`valid <method>#<trace>`)."""
    res = {}
    if not os.path.exists(path):
        return res
    for line in open(path):
        verdict, _, test = line.strip().partition(" ")
        method = test.rsplit("#", 1)[0]
        v, t = res.get(method, (0, 0))
        res[method] = (v + (verdict == "valid"), t + 1)
    return res


def bench_class(cls, out_csv):
    methods = public_methods(cls)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for pre in PRECONDITIONS:
            # Inputs built by calls (`--inputs api`) need no heap strategy of their own: uber's rows.
            for s in (["uber"] if pre == "api" else STRATEGIES):
                progress(f"[{cls}] {s} precondition={pre}")
                tag = f"{s}-{pre}"
                tests = os.path.join(work, tag)
                stats_file = os.path.join(work, f"{tag}.json")
                depth = DEPTH if pre == "none" else REPOK_DEPTH
                cmd = [BIN, "gen", "--cp", JAR, *methods, "--strategy", s, "--out", tests, "--force",
                       "--max-depth", depth, "--time-limit", TIME_LIMIT,
                       "--stats", stats_file, "--validity", "repOK"]
                if pre == "repOK":
                    cmd += ["--precondition", "repOK", "--max-objects", REPOK_OBJECTS, *FUSE]
                # The strategies' columns compare heap inputs (gen's default mixes in call-built ones).
                cmd += ["--inputs", "api" if pre == "api" else "heap"]
                subprocess.run(cmd, capture_output=True, text=True)
                stats = json.load(open(stats_file)) if os.path.exists(stats_file) else []
                env = dict(os.environ, JACOCO_EXEC=os.path.join(work, f"{tag}.exec"), JACOCO_INCLUDES="sir.*",
                           VALIDITY_FILE=os.path.join(work, f"{tag}.valid"),
                           REPORTS_DIR=os.path.join(work, f"{tag}.reports"))
                subprocess.run(["bash", os.path.join(ROOT, "tools/run-junit.sh"), tests, JAR, "5"],
                               capture_output=True, text=True, env=env, cwd=ROOT)
                junit = junit_results(env["REPORTS_DIR"])
                valid = validity(env["VALIDITY_FILE"])
                cov, covered, total, missed = branch_cov(work, env["JACOCO_EXEC"], cls)
                for st in stats:
                    t, p = junit.get(st["test_class"], (0, 0))
                    v, n = valid.get(st["method"], (0, 0))
                    rows.append({
                        "class": f"sir.{cls}", "method": st["method"].split("#", 1)[1], "strategy": s,
                        "precondition": pre, "traces": st["traces"], "paths": st["paths"],
                        "exceptional": st["exceptional"], "cut": st["cut"], "solver_queries": st["solver_queries"],
                        "time_ms": st["time_ms"], "peak_mb": st["peak_mb"], "tests": st["tests"],
                        "tests_passed": p if t else 0, "valid_pct": round(100.0 * v / n, 1) if n else "",
                        "branch_cov_pct": cov, "solver_ms": st.get("solver_ms", 0), "branches": f"{covered}/{total}",
                        "missed": json.dumps(missed, sort_keys=True),
                        "prefixes": (st.get("sequences") or {}).get("prefixes", ""),
                        "pruned": (st.get("sequences") or {}).get("pruned", ""),
                    })
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS + EXTRA)
        w.writeheader()
        w.writerows(rows)


INFEASIBLE = os.path.join(ROOT, "results/infeasible.csv")


def infeasible_list(path=INFEASIBLE):
    """{(class, line): (branches, reason)} from results/infeasible.csv."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            line = r["line"].strip()
            if line.isdigit():
                out[(r["class"].strip().strip("`"), line)] = (int(r["branches"]), r["reason"].strip())
    return out


def coverage_summary(rows):
    """Markdown: per class and strategy, branch coverage with repOK, without the listed infeasible ones."""
    listed = infeasible_list()
    md = ["", "## Branch coverage with `--precondition repOK`", "",
          "Branches results/infeasible.csv lists as infeasible (with the reason) are left out of `adjusted %`;",
          "`unexplained` names every other missed branch as `line x count`.", "",
          "| class | strategy | branches | branch % | infeasible (listed, missed) | adjusted % | unexplained |",
          "|---|---|---:|---:|---:|---:|---|"]
    seen = set()
    for r in rows:
        key = (r["class"], r["strategy"])
        if r["precondition"] != "repOK" or key in seen or "missed" not in r:
            continue
        seen.add(key)
        covered, total = (int(x) for x in r["branches"].split("/"))
        missed = json.loads(r["missed"])
        excluded, unexplained = 0, []
        for line, n in sorted(missed.items(), key=lambda kv: int(kv[0])):
            k = listed.get((r["class"], line), (0, ""))[0]
            excluded += min(k, n)
            if n > k:
                unexplained.append(f"{line}x{n - k}")
        adj = 100.0 * covered / (total - excluded) if total > excluded else 100.0
        md.append(f"| {r['class']} | {r['strategy']} | {covered}/{total} | {r['branch_cov_pct']} | {excluded} | "
                  f"{adj:.1f} | {' '.join(unexplained)} |")
    return md


def api_summary(rows):
    """Markdown: per class, uber's tests with inputs built by calls against heap inputs under repOK."""
    md = ["", "## Inputs built by calls (`--inputs api`) against heap inputs under repOK (uber)", "",
          "`api`: no precondition; each test builds its receiver by a public constructor and at most 3 calls "
          f"(`--max-sequence`), --max-depth {REPOK_DEPTH}. `repOK`: the repOK rows above. Valid inputs and passing "
          "tests are over the class's tests; branch coverage is JaCoCo's of the class.", "",
          "| class | tests repOK | tests api | passed api | valid % repOK | valid % api | branch % repOK | branch % api |",
          "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for cls in dict.fromkeys(r["class"] for r in rows):
        cells = {}
        for pre in ["repOK", "api"]:
            rs = [r for r in rows if r["class"] == cls and r["strategy"] == "uber" and r["precondition"] == pre]
            tests = sum(int(r["tests"]) for r in rs)
            passed = sum(int(r["tests_passed"] or 0) for r in rs)
            valid = [(float(r["valid_pct"]), int(r["tests"])) for r in rs if r["valid_pct"] not in ("", None)]
            n = sum(t for _, t in valid)
            cells[pre] = (tests, passed, f"{sum(v * t for v, t in valid) / n:.1f}" if n else "",
                          rs[0]["branch_cov_pct"] if rs else "")
        if not cells["api"][0] and not cells["repOK"][0]:
            continue
        (tr, _, vr, br), (ta, pa, va, ba) = cells["repOK"], cells["api"]
        md.append(f"| {cls} | {tr} | {ta} | {pa} | {vr} | {va} | {br} | {ba} |")
    md += ["", "Per method (uber): program paths without a precondition (heap inputs), under repOK, and with "
           "inputs built by calls; the call-sequence prefixes the api run explored and pruned, and its time.", "",
           "| class | method | paths none | paths repOK | paths api | prefixes | pruned | time_ms api |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    by = {(r["class"], r["method"], r["precondition"]): r for r in rows if r["strategy"] == "uber"}
    for (cls, method, pre), r in by.items():
        if pre != "api":
            continue
        none, rep = by.get((cls, method, "none"), {}), by.get((cls, method, "repOK"), {})
        md.append(f"| {cls} | {method} | {none.get('paths', '')} | {rep.get('paths', '')} | {r['paths']} | "
                  f"{r.get('prefixes') or ''} | {r.get('pruned') or ''} | {r['time_ms']} |")
    return md


def table(parts):
    rows = []
    for p in parts:
        rows.extend(csv.DictReader(open(p)))
    os.makedirs(os.path.join(ROOT, "results"), exist_ok=True)
    with open(os.path.join(ROOT, "results/bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    lazy = {(r["class"], r["method"], r["precondition"]): int(r["traces"]) for r in rows if r["strategy"] == "lazy"}
    md = ["# SIR benchmark", "",
          f"Bounds for every strategy: --max-depth {DEPTH} without a precondition; with repOK --max-depth {REPOK_DEPTH}, --max-objects {REPOK_OBJECTS} and --precondition-fuse {PRE_FUSE or 'default'}; --time-limit {TIME_LIMIT} s, "
          "other bounds at their defaults.",
          "`uber/lazy` is the ratio of traces. Reproduce with `make bench`.", "",
          "| " + " | ".join(COLUMNS + ["uber/lazy"]) + " |", "|" + "---|" * (len(COLUMNS) + 1)]
    for r in rows:
        ratio = ""
        if r["strategy"] == "uber":
            base = lazy.get((r["class"], r["method"], r["precondition"]))
            ratio = f"{int(r['traces']) / base:.2f}" if base else ""
        md.append("| " + " | ".join(str(r[c]) for c in COLUMNS) + f" | {ratio} |")
    uber_pre = sorted(int(r["time_ms"]) for r in rows if r["strategy"] == "uber" and r["precondition"] == "repOK")
    if uber_pre:
        md += ["", f"Median time per method (uber, repOK): {uber_pre[len(uber_pre) // 2]} ms."]
    slow = sorted(rows, key=lambda r: -int(r["time_ms"]))[:10]
    md += ["", "Slowest ten rows, with the share of their time spent inside Z3:", "",
           "| class | method | strategy | precondition | time_ms | solver_ms | solver share |", "|---|---|---|---|---:|---:|---:|"]
    for r in slow:
        t, sv = int(r["time_ms"]), int(r.get("solver_ms") or 0)
        share = f"{100.0 * sv / t:.0f}%" if t else "-"
        md.append(f"| {r['class']} | {r['method']} | {r['strategy']} | {r['precondition']} | {t} | {sv} | {share} |")
    md += coverage_summary(rows)
    md += api_summary(rows)
    with open(os.path.join(ROOT, "results/bench.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def times(args):
    """`times`: see the module doc."""
    import argparse
    import statistics
    ap = argparse.ArgumentParser(prog="bench.py times")
    ap.add_argument("--repok", action="store_true")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--strategies", default="lazy,lazier,uber,pose")
    ap.add_argument("--classes", default=",".join(SIR_CLASSES))
    ap.add_argument("--csv")
    a = ap.parse_args(args)
    strategies = a.strategies.split(",")
    bounds = ["--max-depth", DEPTH, "--time-limit", TIME_LIMIT]
    if a.repok:
        bounds = ["--precondition", "repOK", "--max-objects", REPOK_OBJECTS, *FUSE,
                  "--max-depth", REPOK_DEPTH, "--time-limit", TIME_LIMIT]
    print(f"bounds: {' '.join(bounds)}; {a.runs} run(s) per method and strategy (median)")
    rows = []  # (method, strategy, time_ms, solver_ms, traces, paths, path set, check_ms, precondition_ms)
    for cls in a.classes.split(","):
        for m in public_methods(cls):
            # The strategies take turns run by run, so that a stretch of a busy machine
            # falls on all of them rather than on one strategy's runs of the method.
            ts = {s: [] for s in strategies}
            last = {}
            for _ in range(a.runs):
                for s in strategies:
                    progress(f"{m} {s}")
                    out = subprocess.run([BIN, "run", "--cp", JAR, m, "--strategy", s, "--json", *bounds],
                                         capture_output=True, text=True)
                    if out.returncode != 0:
                        sys.exit(f"{m} {s}: {out.stderr.strip()}")
                    last[s] = json.loads(out.stdout)
                    ts[s].append(last[s]["time_ms"])
            for s in strategies:
                d = last[s]
                paths = frozenset(t["path"] for t in d["trace_list"])
                rows.append((m, s, int(statistics.median(ts[s])), d["solver_ms"], d["traces"], d["paths"], paths,
                             d.get("check_ms", 0), d.get("precondition_ms", 0)))
    by = {(r[0], r[1]): r for r in rows}
    methods = list(dict.fromkeys(r[0] for r in rows))
    head = "| method | " + " | ".join(f"{s} ms | {s} paths" for s in strategies) + " |"
    print(head)
    print("|---|" + "---:|---:|" * len(strategies))
    for m in methods:
        cells = []
        for s in strategies:
            r = by.get((m, s))
            cells += [str(r[2]), str(r[5])] if r else ["-", "-"]
        print(f"| {m} | " + " | ".join(cells) + " |")
    total = {s: sum(r[2] for r in rows if r[1] == s) for s in strategies}
    print("\ntotal time_ms per strategy: " + ", ".join(f"{s} {total[s]}" for s in strategies))
    # Where it went (the last run of each): the satisfiability checks (Z3's share in brackets)
    # and, under a precondition, the searches for valid inputs (which make checks too).
    part = {s: [sum(r[i] for r in rows if r[1] == s) for i in (7, 3, 8)] for s in strategies}
    print("of which checks (Z3) / precondition searches, ms: "
          + ", ".join(f"{s} {c} ({z}) / {p}" for s, (c, z, p) in part.items()))
    print("\nslowest ten (method, strategy):")
    for r in sorted(rows, key=lambda r: -r[2])[:10]:
        print(f"  {r[2]:>7} ms  (solver {r[3]} ms)  {r[0]} {r[1]}")
    fails = []
    if "lazy" in total and "uber" in total:
        if total["uber"] > total["lazy"]:
            fails.append(f"uber total {total['uber']} ms > lazy total {total['lazy']} ms")
        for m in methods:
            u, lz = by.get((m, "uber")), by.get((m, "lazy"))
            if u and lz and u[2] > 2 * lz[2] + 50:
                fails.append(f"{m}: uber {u[2]} ms > 2 x lazy {lz[2]} ms + 50")
        em = by.get(("sir.BinomialHeap#extractMin()I", "uber"))
        if not a.repok and em and em[2] >= 1000:
            fails.append(f"sir.BinomialHeap#extractMin: uber {em[2]} ms >= 1 s")
    if a.repok and "lazy" in total and "pose" in total and total["pose"] > 2 * total["lazy"]:
        fails.append(f"pose total {total['pose']} ms > 2 x lazy total {total['lazy']} ms")
    for m in methods:
        sets = {s: by[(m, s)][6] for s in strategies if (m, s) in by}
        if len(set(sets.values())) > 1:
            base = sets[strategies[0]]
            diff = {s: (len(p - base), len(base - p)) for s, p in sets.items() if p != base}
            fails.append(f"{m}: the strategies report different paths (vs {strategies[0]}: extra, missing = {diff})")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["method", "strategy", "time_ms", "solver_ms", "traces", "paths"])
            w.writerows(r[:6] for r in rows)
    print("\nchecks: " + ("all hold" if not fails else f"{len(fails)} failed"))
    for f in fails:
        print(f"  FAIL {f}")
    sys.exit(1 if fails else 0)


SIR_CLASSES = ["SinglyLinkedList", "DoublyLinkedList", "Stack", "BinarySearchTree", "AvlTree", "RedBlackTree",
               "AATree", "BinomialHeap"]


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help", "help"):
        print(__doc__)
    elif len(sys.argv) >= 4 and sys.argv[1] == "class":
        bench_class(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "times":
        times(sys.argv[2:])
    else:
        sys.exit(__doc__)
