#!/usr/bin/env python3
"""Runs every public method of a list of classes under a short time limit and checks the limits held.

usage: tools/sweep.py [--jar JAR]... [--classes FILE | CLASS...] [--strategies uber,lazy]
                      [--time-limit 5] [--max-per-class N] [--jobs 1] [--bin PATH]
                      [--out results/sweep] [--quick] [--list]

For each class (default: the 25 guava and commons-lang3 classes of DEFAULT_CLASSES; --classes
FILE names one class a line, # comments allowed), `uberlazy classes --cp JAR` gives its methods;
every public one with code (not a constructor, not synthetic or bridge; --max-per-class keeps
the first N) is run once per strategy as
    uberlazy run --cp JARS 'pkg.C#m(desc)' --strategy S --time-limit L --json
under /usr/bin/time (wall seconds, peak RSS) and `timeout L+10` (then KILL), one process at a
time (--jobs N for more). Each run is one row of <out>.csv: exit code, status (ok, halted,
unsupported, usage, engine error, panic, crash, killed, other), wall time, peak MB, traces, cut
traces, the `halted` field, the cut reasons of its traces and the first line of stderr.
<out>.md summarises them. The acceptance checks (exit 1 when one fails, else 0): no run's wall
time exceeds L+1 s, no panic, crash, engine error or outer kill, and every halted run says why
(`halted` names a reason, no cut trace lacks one, a run whose exploration used up its time
limit reports `halted`).

The binary is --bin, else $UBERLAZY, else target/release/uberlazy. The jars default to Debian's
guava and commons-lang3; every run gets all of them on --cp. --quick: 3 small classes, uber
only (a smoke test). --list: print the classes and their method counts and stop.
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JARS = ["/usr/share/java/guava.jar", "/usr/share/java/commons-lang3.jar"]
G, L3 = "com.google.common.", "org.apache.commons.lang3."
DEFAULT_CLASSES = [G + c for c in (
    "math.IntMath", "math.LongMath", "primitives.Ints", "primitives.Longs", "primitives.Chars",
    "primitives.Booleans", "primitives.Bytes", "primitives.UnsignedInts", "base.Strings", "base.Ascii",
    "collect.Lists", "collect.HashBiMap", "collect.MinMaxPriorityQueue", "collect.LinkedListMultimap",
)] + [L3 + c for c in (
    "BooleanUtils", "CharUtils", "CharSetUtils", "RegExUtils", "BitField", "Range", "math.Fraction",
    "text.WordUtils", "mutable.MutableInt", "tuple.MutablePair", "CharSequenceUtils",
)]  # 14 + 11 classes, 455 public methods (tools/sweep.py --list)
QUICK_CLASSES = [G + "base.Strings", G + "base.Ascii", L3 + "CharSetUtils"]
FIELDS = ["class", "method", "strategy", "exit", "status", "wall_s", "peak_mb", "over_limit", "traces", "cut",
          "time_ms", "halted", "cut_reasons", "message", "check"]
# Exit-2 messages (src/error.rs): what a user asked wrong, what the engine does not support yet,
# and what means the engine itself failed. Anything else of exit 2 counts as an engine error.
USAGE = re.compile(r"unknown method|ambiguous method|must look like|malformed descriptor|empty class path|"
                   r"unknown strategy|--strategy takes|error: (unexpected|invalid|the following)")
UNSUPPORTED = re.compile(r"unsupported instruction|does not support|has no model|not found on the class path|"
                         r"cannot resolve method|method has no code|no concrete class to instantiate")
ENGINE = re.compile(r"internal|engine bug|a bug|solver failure|model check failed|cannot lower|malformed class file|"
                    r"corrupt jar")
FAILING = {"panic", "crash", "engine error", "killed", "other"}


def list_methods(binary, jar):
    """{class: [(status, modifiers, 'name(desc)ret')]} from `uberlazy classes --cp JAR`."""
    out = subprocess.run([binary, "classes", "--cp", jar], capture_output=True, text=True, check=True).stdout
    classes, cur = {}, None
    for line in out.splitlines():
        if not line.startswith("  "):
            cur = line.split()[-1] if re.search(r"\b(class|interface|enum) \S+$", line) else None
            if cur:
                classes[cur] = []
            continue
        m = re.match(r"  (ok|no code|FAILED)\s+(.*)$", line)
        if m and cur:
            toks = m.group(2).split()
            i = next(k for k, t in enumerate(toks) if "(" in t)
            classes[cur].append((m.group(1), set(toks[:i]), toks[i].rstrip(":")))
    return classes


def public_methods(entries):
    """The names of the public methods with code, in class file order."""
    return [sig for status, mods, sig in entries
            if status != "no code" and "public" in mods and not mods & {"synthetic", "bridge", "abstract", "native"}
            and not sig.startswith("<")]


def parse_json(path):
    """(summary dict or None, Counter of cut reasons, traces cut without a reason) from `run --json` output."""
    reasons, unnamed, size = Counter(), 0, 0
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            f.seek(max(0, size - 16384))
            tail = f.read().decode("utf-8", "replace")
        i = tail.rfind('],\n  "')  # the end of trace_list; the counts follow, one a line
        summary = json.loads("{" + tail[i + 3:]) if i >= 0 else None
    except (OSError, ValueError):
        summary = None
    if size <= 300 * 2**20:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("    {"):
                    try:
                        t = json.loads(line.strip().rstrip(","))
                    except ValueError:
                        continue
                    if t.get("outcome") == "cut":
                        if t.get("cut"):
                            reasons[t["cut"]] += 1
                        else:
                            unnamed += 1
    return summary, reasons, unnamed


def first_message(stderr):
    """The line of stderr that says what went wrong (a panic's location and message)."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    for k, ln in enumerate(lines):
        if "panicked" in ln:
            return f"{ln} {lines[k + 1].strip()}" if ln.endswith(":") and k + 1 < len(lines) else ln
    for ln in lines:
        if ln.startswith("error:"):
            return ln
    return lines[0] if lines else ""


def classify(rc, stderr, msg, wall, limit):
    if rc in (124, 137) and wall >= limit + 9:
        return "killed"
    if "panicked" in stderr or rc == 101:
        return "panic"
    if rc == 2:
        if USAGE.search(msg):
            return "usage"
        if ENGINE.search(msg):
            return "engine error"
        return "unsupported" if UNSUPPORTED.search(msg) else "engine error"
    if rc > 128 or rc < 0:
        return "crash"
    return "other"


def run_one(args, cls, method, strategy):
    limit = args.time_limit
    spec = f"{cls}#{method}"
    with tempfile.TemporaryDirectory(prefix="sweep-") as d:
        out, err, tim = (os.path.join(d, n) for n in ("out", "err", "time"))
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", tim, "timeout", "-s", "TERM", "-k", "5", str(limit + 10),
               args.bin, "run", "--cp", args.cp, spec, "--strategy", strategy, "--time-limit", str(limit), "--json"]
        start = time.monotonic()
        with open(out, "wb") as fo, open(err, "wb") as fe:
            try:
                rc = subprocess.run(cmd, stdout=fo, stderr=fe, timeout=limit + 60).returncode
            except subprocess.TimeoutExpired:
                rc = -9
        wall = time.monotonic() - start
        peak_kb = 0
        try:
            tl = open(tim).read().split("\n")
            e, m = [ln for ln in tl if re.fullmatch(r"[\d.]+ \d+", ln)][-1].split()
            wall, peak_kb = float(e), int(m)
        except (OSError, IndexError, ValueError):
            pass
        stderr = open(err, encoding="utf-8", errors="replace").read()
        summary, reasons, unnamed = parse_json(out) if rc in (0, 124, 137) else (None, Counter(), 0)
    row = {"class": cls, "method": method, "strategy": strategy, "exit": rc, "wall_s": f"{wall:.2f}",
           "peak_mb": f"{peak_kb / 1024:.1f}", "over_limit": int(wall > limit + 1), "traces": "", "cut": "",
           "time_ms": "", "halted": "", "cut_reasons": "", "message": "", "check": ""}
    s = summary or {}
    row.update(traces=s.get("traces", ""), cut=s.get("cut", ""), time_ms=s.get("time_ms", ""),
               halted=s.get("halted") or "", status="halted" if s.get("halted") else "ok",
               cut_reasons=" | ".join(f"{r} x{n}" for r, n in reasons.most_common()), reasons=reasons)
    if rc == 0:
        if summary is None:
            row["check"] = "no JSON summary"
        elif "halted" in s and s["halted"] is not None and not str(s["halted"]).strip():
            row["check"] = "halted with an empty reason"
        elif unnamed:
            row["check"] = f"{unnamed} cut traces without a reason"
        elif not s.get("halted") and (s.get("time_ms") or 0) >= limit * 1000:
            row["check"] = f"explored {s['time_ms']} ms (the whole limit) but halted is null"
    else:
        row["message"] = first_message(stderr)[:400]
        row["status"] = classify(rc, stderr, row["message"], wall, limit)
        if row["status"] == "killed":
            how = "it stopped on TERM" if rc == 124 else "KILL 5 s after TERM"
            row["message"] = "; ".join(filter(None, [f"the outer timeout ({limit + 10} s) fired, {how}", row["message"]]))
        elif not row["message"]:
            row["message"] = f"no stderr; exit {rc}" + (f" (signal {rc - 128})" if rc > 128 else "")
    if row["over_limit"] and not row["check"]:
        row["check"] = f"wall {wall:.2f} s > {limit + 1} s"
    if row["status"] in FAILING and not row["check"]:
        row["check"] = row["status"]
    return row


def git_commit():
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return sha.strip() + (" (with uncommitted changes)" if dirty else "")
    except OSError:
        return "unknown"


def name(r):
    return f"`{r['class']}#{r['method']}` {r['strategy']}"


def summarize(rows, args, classes, argv):
    L = args.time_limit
    walls = [float(r["wall_s"]) for r in rows]
    peaks = sorted(rows, key=lambda r: -float(r["peak_mb"]))
    over = sorted((r for r in rows if r["over_limit"]), key=lambda r: -float(r["wall_s"]))
    bad = [r for r in rows if r["status"] in FAILING]
    unreasoned = [r for r in rows if r["check"] and not r["over_limit"] and r["status"] not in FAILING]
    version = subprocess.run([args.bin, "--version"], capture_output=True, text=True).stdout.strip()
    nmeth = sum(len(v) for v in classes.values())
    md = ["# Sweep: every public method under a short time limit", "",
          f"Generated by `{' '.join(argv)}` with {version or args.bin} (commit {git_commit()}, "
          f"{time.strftime('%Y-%m-%d')}): {len(classes)} classes, {nmeth} methods, strategies "
          f"{', '.join(args.strategies)}, `--time-limit {L}`, {len(rows)} runs of `uberlazy run --json` "
          f"one after the other (`--jobs {args.jobs}`). Class path: `{args.cp}`.", "",
          "## Acceptance", "",
          f"- wall time at most {L + 1} s: {'PASS' if not over else f'FAIL ({len(over)} runs over)'}",
          f"- no panic, crash, engine error or outer kill: {'PASS' if not bad else f'FAIL ({len(bad)} runs)'}",
          f"- every halted run says why: {'PASS' if not unreasoned else f'FAIL ({len(unreasoned)} runs)'}", "",
          "## Runs", "",
          "| status | runs |", "|---|---:|"]
    md += [f"| {s} | {n} |" for s, n in Counter(r["status"] for r in rows).most_common()]
    md += ["", "| exit code | runs |", "|---:|---:|"]
    md += [f"| {c} | {n} |" for c, n in sorted(Counter(r["exit"] for r in rows).items())]
    if walls:
        md += ["", f"Wall time: median {statistics.median(walls):.2f} s, max {max(walls):.2f} s "
               f"({name(max(rows, key=lambda r: float(r['wall_s'])))}), total {sum(walls) / 60:.1f} min. "
               f"Peak memory: median {statistics.median(float(r['peak_mb']) for r in rows):.1f} MB, "
               f"max {peaks[0]['peak_mb']} MB ({name(peaks[0])})."]
    md += ["", "| class | methods | runs | ok | halted | unsupported | failing | over limit | max wall s | max MB |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c, ms in classes.items():
        rs = [r for r in rows if r["class"] == c]
        st = Counter(r["status"] for r in rs)
        md.append(f"| `{c}` | {len(ms)} | {len(rs)} | {st['ok']} | {st['halted']} | {st['unsupported']} | "
                  f"{sum(st[s] for s in FAILING)} | {sum(r['over_limit'] for r in rs)} | "
                  f"{max((float(r['wall_s']) for r in rs), default=0):.2f} | "
                  f"{max((float(r['peak_mb']) for r in rs), default=0):.1f} |")
    md += ["", f"## Runs over {L + 1} s ({len(over)})", ""]
    outside = [r for r in rows if r["time_ms"] != "" and float(r["wall_s"]) - int(r["time_ms"]) / 1000 > 1]
    if outside:
        md += [f"{len(outside)} runs spent more than 1 s outside the exploration (wall time minus the JSON's "
               f"`time_ms`), {sum(r['over_limit'] for r in outside)} of them over the limit.", ""]
    md += [f"- {r['wall_s']} s {name(r)}: {r['status']}" + (f", halted {r['halted']}" if r["halted"] else "")
           + (f", explored {r['time_ms']} ms" if r.get("time_ms") != "" else "") for r in over] or ["none"]
    md += ["", f"## Panics, crashes, engine errors, kills ({len(bad)})", ""]
    md += [f"- {name(r)}: {r['status']}, exit {r['exit']}: {r['message']}" for r in bad] or ["none"]
    md += ["", f"## Halted without a reason ({len(unreasoned)})", ""]
    md += [f"- {name(r)}: {r['check']}" for r in unreasoned] or ["none"]
    md += ["", "## Halt reasons", "", "| halted | runs |", "|---|---:|"]
    md += [f"| {h} | {n} |" for h, n in Counter(r["halted"] for r in rows if r["halted"]).most_common()] or ["| none | 0 |"]
    cuts = Counter()
    for r in rows:
        for reason in r.get("reasons") or ():
            cuts[re.sub(r"no model: \S+", "no model: M", reason)] += 1
    md += ["", "Cut reasons of traces (runs with at least one such trace; callee names folded):", "",
           "| cut reason | runs |", "|---|---:|"]
    md += [f"| {c} | {n} |" for c, n in cuts.most_common(20)] or ["| none | 0 |"]
    other = Counter(re.sub(r"^error: \S+#\S+( at offset \d+)?: ", "error: ", r["message"])
                    for r in rows if r["status"] in ("unsupported", "usage"))
    md += ["", "## Unsupported and usage errors (exit 2, by message, method folded)", ""]
    md += [f"- {n} x {m}" for m, n in other.most_common(30)] or ["none"]
    return "\n".join(md) + "\n", bool(over or bad or unreasoned)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("classes", nargs="*", help="classes to sweep (default: the built-in list)")
    p.add_argument("--jar", action="append", help="a jar to take classes from (repeatable)")
    p.add_argument("--cp", help="the class path of every run (default: the jars joined by ':')")
    p.add_argument("--classes", dest="class_file", help="a file naming one class a line")
    p.add_argument("--strategies", help="comma-separated (default: uber,lazy; --quick: uber)")
    p.add_argument("--time-limit", type=int, default=5)
    p.add_argument("--max-per-class", type=int)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--bin", default=os.environ.get("UBERLAZY", os.path.join(ROOT, "target/release/uberlazy")))
    p.add_argument("--out", default="results/sweep")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--list", action="store_true")
    args = p.parse_args(argv[1:])
    args.jars = args.jar or JARS
    args.cp = args.cp or ":".join(args.jars)
    args.strategies = (args.strategies or ("uber" if args.quick else "uber,lazy")).split(",")
    wanted = list(args.classes)
    if args.class_file:
        wanted += [ln.split("#")[0].strip() for ln in open(args.class_file) if ln.split("#")[0].strip()]
    wanted = wanted or (QUICK_CLASSES if args.quick else DEFAULT_CLASSES)
    found = {}
    for jar in args.jars:
        for c, entries in list_methods(args.bin, jar).items():
            found.setdefault(c, entries)
    missing = [c for c in wanted if c not in found]
    if missing:
        sys.exit(f"sweep: not in {', '.join(args.jars)}: {', '.join(missing)}")
    classes = {c: public_methods(found[c])[:args.max_per_class] for c in wanted}
    if args.list:
        for c, ms in classes.items():
            print(f"{len(ms):4} {c}")
        print(f"{sum(len(m) for m in classes.values()):4} methods in {len(classes)} classes")
        return 0
    jobs = [(c, m, s) for c, ms in classes.items() for m in ms for s in args.strategies]
    rows, done = [], 0

    def one(job):
        return run_one(args, *job)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row in pool.map(one, jobs):
            done += 1
            rows.append(row)
            print(f"[{done}/{len(jobs)}] {row['strategy']} {row['class']}#{row['method']}: {row['status']} "
                  f"exit {row['exit']} {row['wall_s']} s {row['peak_mb']} MB {row['check']}", file=sys.stderr, flush=True)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    text, failed = summarize(rows, args, classes, ["tools/sweep.py"] + argv[1:])
    with open(args.out + ".md", "w") as f:
        f.write(text)
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
