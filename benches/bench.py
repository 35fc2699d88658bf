#!/usr/bin/env python3
"""Benchmark kairos on TChecker's families, side by side with TChecker v0.8.

    python3 benches/bench.py [FAMILY ...] [--max-seconds S] [options]

For each family (default: every family benches/generate.py knows) and growing N,
runs the release binary `kairos check MODEL --abstraction lu --format json --jobs 1`
with inclusion subsumption (TChecker's `covreach`) and with `--no-subsumption`
(TChecker's `reach`), measures wall time and the peak RSS of the child
(getrusage via wait4), and prints one table with TChecker's numbers from
/work/shared/reference/results.tsv next to kairos's. An algorithm stops growing
N for a family once a run exceeds --max-seconds (kairos gets `--timeout S` and
is killed shortly after S); the family stops when all its algorithms have.

MODEL is models/bench/FAMILY_N.yaml when it exists, else the model generated
by benches/generate.py into a temporary directory. The query is TChecker's
query for the family in results.tsv (`--labels a,b`, or `-q 'E<> false'` to
explore the whole zone graph when TChecker ran without labels); a family with
no row there is checked against the model's own `labels` property.

Only the Python standard library is used; Linux (wait4) is assumed.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))
sys.dont_write_bytecode = True  # no __pycache__ in benches/
import generate  # noqa: E402

REFERENCE = Path("/work/shared/reference/results.tsv")
ALGORITHMS = {
    # name: (kairos options, TChecker algorithm in results.tsv)
    "reach": (["--abstraction", "lu", "--no-subsumption"], "reach"),
    "covreach": (["--abstraction", "lu"], "covreach"),
    "alu-covreach": (["--abstraction", "alu"], "aLU-covreach"),
}


def load_reference(path: Path):
    rows = {}
    labels = {}
    if not path.exists():
        return rows, labels
    with path.open() as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["tool"] != "tck-reach":
                continue
            rows[(r["model"], int(r["N"]), r["algo"])] = r
            labels.setdefault(r["model"], r["labels"])
    return rows, labels


def kairos_binary(force_build: bool) -> Path:
    exe = ROOT / "target" / "release" / "kairos"
    if force_build or not exe.exists():
        print("building target/release/kairos ...", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return exe


def run_child(cmd: list[str], limit: float):
    """Run cmd; return (exit code, stdout, stderr, wall seconds, peak RSS MB, killed)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
        killed = []

        def kill():
            killed.append(True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(limit, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        # ru_maxrss is in kilobytes on Linux
        return proc.returncode, out.read().decode(), err.read().decode(), wall, usage.ru_maxrss / 1024, bool(killed)


def model_path(family: str, n: int, tmp: Path) -> Path:
    bench = ROOT / "models" / "bench" / f"{family}_{n}.yaml"
    if bench.exists():
        return bench
    path = tmp / f"{family}_{n}.yaml"
    if not path.exists():
        path.write_text(generate.to_yaml(generate.build(family, n), family=family, n=n))
    return path


def query_args(family: str, tck_labels: dict) -> list[str]:
    labels = tck_labels.get(family)
    if labels is None:
        return []  # the model's own `labels` property (or none: whole graph)
    if labels == "<none>":
        return ["-q", "E<> false"]
    return ["--labels", labels]


def fmt_int(v):
    return "-" if v is None else str(v)


def fmt_f(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def compare(algo: str, verdict: str | None, stats: dict | None, ref: dict | None) -> str:
    """How kairos's counts compare with TChecker's (see benches/README.md)."""
    if ref is None or stats is None or ref["visited"] == "-":
        return ""
    tck_verdict = {"reachable": "satisfied", "unreachable": "violated"}.get(ref["verdict"])
    if tck_verdict and verdict in ("satisfied", "violated") and verdict != tck_verdict:
        return "VERDICT!"
    if verdict == "satisfied":
        return "found"  # early stop: counts depend on when the target is met
    ours = {"v": stats.get("visited"), "s": stats.get("stored"), "t": stats.get("transitions")}
    theirs = {"v": ref["visited"], "s": ref["stored"], "t": ref["transitions"]}
    signs = []
    for k in ("v", "s", "t"):
        if theirs[k] in ("-", None) or ours[k] is None:
            continue
        a, b = ours[k], int(theirs[k])
        signs.append(k + ("=" if a == b else "<" if a < b else ">"))
    if all(s.endswith("=") for s in signs):
        return "="
    return " ".join(signs)


COLUMNS = [
    ("model", "<"), ("N", ">"), ("algorithm", "<"), ("verdict", "<"), ("visited", ">"), ("stored", ">"),
    ("transitions", ">"), ("time s", ">"), ("alg s", ">"), ("peak MB", ">"), ("B/state", ">"), ("store B/st", ">"),
    ("states/s", ">"),
    ("tck visited", ">"), ("tck stored", ">"), ("tck time s", ">"), ("tck MB", ">"), ("tck/kairos", ">"),
    ("counts", "<"),
]
WIDTHS = [19, 3, 12, 9, 9, 9, 11, 8, 8, 8, 8, 10, 10, 11, 10, 10, 7, 10, 12]


class Table:
    def __init__(self, markdown: bool):
        self.markdown = markdown

    def header(self):
        names = [c for c, _ in COLUMNS]
        if self.markdown:
            print("| " + " | ".join(names) + " |")
            print("|" + "|".join("---" if a == "<" else "--:" for _, a in COLUMNS) + "|")
        else:
            print("  ".join(f"{n:{a}{w}}" for (n, a), w in zip(COLUMNS, WIDTHS)))
        sys.stdout.flush()

    def row(self, cells):
        cells = [str(c) for c in cells]
        if self.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("  ".join(f"{c:{a}{w}}" for c, (_, a), w in zip(cells, COLUMNS, WIDTHS)))
        sys.stdout.flush()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("families", nargs="*", metavar="FAMILY", help="default: all of " + ", ".join(generate.FAMILIES))
    ap.add_argument("--max-seconds", type=float, default=60.0, help="stop growing N past a run this long (default 60)")
    ap.add_argument("--min-n", type=int, default=2, help="first N (default 2; ad94 has only N = 1)")
    ap.add_argument("--max-n", type=int, default=64, help="last N even if runs stay fast (default 64)")
    ap.add_argument("--algorithms", default="reach,covreach", help="comma-separated: " + ", ".join(ALGORITHMS))
    ap.add_argument("--markdown", action="store_true", help="print the table in Markdown")
    ap.add_argument("--build", action="store_true", help="run `cargo build --release` first even if the binary exists")
    ap.add_argument("--kairos", type=Path, help="the kairos binary (default: target/release/kairos)")
    ap.add_argument("--reference", type=Path, default=REFERENCE, help="TChecker's results.tsv")
    args = ap.parse_args(argv)

    families = args.families or list(generate.FAMILIES)
    for f in families:
        if f not in generate.FAMILIES:
            ap.error(f"unknown family `{f}`; known: {', '.join(generate.FAMILIES)}")
    algos = [a.strip() for a in args.algorithms.split(",") if a.strip()]
    for a in algos:
        if a not in ALGORITHMS:
            ap.error(f"unknown algorithm `{a}`; known: {', '.join(ALGORITHMS)}")
    exe = args.kairos or kairos_binary(args.build)
    ref_rows, tck_labels = load_reference(args.reference)

    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True)
    print(
        f"# kairos {commit.stdout.strip() or '?'}, {datetime.date.today()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, --max-seconds {args.max_seconds:g}"
    )
    table = Table(args.markdown)
    table.header()
    with tempfile.TemporaryDirectory(prefix="kairos-bench-") as tmpdir:
        tmp = Path(tmpdir)
        for family in families:
            live = list(algos)
            sizes = [1] if family == "ad94" else range(max(args.min_n, 1), args.max_n + 1)
            for n in sizes:
                if not live:
                    break
                path = model_path(family, n, tmp)
                for algo in list(live):
                    options, tck_algo = ALGORITHMS[algo]
                    # One thread: TChecker's counts are those of one breadth-first order.
                    cmd = [str(exe), "check", str(path), *options, *query_args(family, tck_labels), "--format", "json",
                           "--jobs", "1", "--timeout", f"{args.max_seconds:g}"]
                    code, out, err, wall, rss, killed = run_child(cmd, args.max_seconds * 1.2 + 5)
                    verdict = stats = None
                    try:
                        doc = json.loads(out)
                        props = doc.get("properties") or []
                        if props:
                            verdict, stats = props[0].get("verdict"), props[0].get("stats")
                            if verdict == "unknown":
                                verdict = f"unknown({props[0].get('reason', '?')})"
                        else:
                            verdict, stats = doc.get("verdict", "explored"), doc.get("stats")
                    except (json.JSONDecodeError, AttributeError):
                        verdict = "KILLED" if killed else f"exit {code}"
                        msg = err.strip().splitlines()
                        if msg and not killed:
                            print(f"# {family} {n} {algo}: {msg[-1]}", file=sys.stderr)
                    timed_out = killed or (verdict or "").startswith("unknown(timeout")
                    if timed_out:
                        verdict = f"TIMEOUT>{args.max_seconds:g}s"
                    stats = stats or {}
                    alg = stats.get("time_s")
                    visited = stats.get("visited")
                    ref = ref_rows.get((family, n, tck_algo))
                    tck_time = None
                    if ref and ref["tck_time_s"] != "-":
                        tck_time = float(ref["tck_time_s"])
                    ratio = "-"
                    if tck_time and alg and not timed_out:
                        ratio = f"{tck_time / alg:.2f}"
                    table.row([
                        family, n, algo, verdict,
                        fmt_int(visited), fmt_int(stats.get("stored")), fmt_int(stats.get("transitions")),
                        fmt_f(wall), fmt_f(alg), fmt_f(rss, 1),
                        f"{rss * 2**20 / stats['stored']:.0f}" if stats.get("stored") else "-",
                        fmt_int(stats.get("bytes_per_state")),
                        f"{visited / alg:.0f}" if visited and alg and not timed_out else "-",
                        ref["visited"] if ref else "", ref["stored"] if ref else "",
                        (ref["verdict"] if ref["verdict"].startswith("TIMEOUT") else ref["tck_time_s"]) if ref else "",
                        ref["maxrss_MB"] if ref else "", ratio,
                        "" if timed_out else compare(algo, verdict, stats, ref),
                    ])
                    # a run past the limit (finished or not) ends this algorithm's series
                    if timed_out or wall > args.max_seconds or (verdict or "").startswith(("exit", "unknown")):
                        live.remove(algo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
