#!/usr/bin/env python3
"""Liveness vs safety on the same model (issues 7 and 18).

Runs `kairos check` on models/train-gate.yaml (its `go` channel urgent, as in
UPPAAL's version) or models/fischer.yaml with N processes, for a safety
property and a leads-to property of the same model, REPEAT times each,
interleaved (hyperfine-style, so that load on the machine hits both alike),
and prints the fastest and the median engine times (`time_s` of the JSON
output) and whole-process times (wall clock, loading and every check after
the search included: for liveness, the time-lock scan), the state counts
(`visited`), the ratios of the fastest times (the least disturbed by other
load) and the load average. Exits 1 if a ratio, engine or whole process,
exceeds --max-ratio (default 3).

    python3 benches/liveness.py [--model train-gate|fischer] [--n 5 6 7]
        [--repeat 11] [--kairos target/release/kairos]

Properties: train-gate `A[] not (Train(1).Cross and Train(2).Cross)` and
`Train(1).Appr --> Train(1).Cross` (both hold); Fischer
`A[] not (P(1).cs and P(2).cs)` and `P(1).req --> P(1).wait` (both hold:
`req`'s invariant `x <= K` forces the write).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = {
    "train-gate": ("A[] not (Train(1).Cross and Train(2).Cross)", "Train(1).Appr --> Train(1).Cross"),
    "fischer": ("A[] not (P(1).cs and P(2).cs)", "P(1).req --> P(1).wait"),
}


def run(kairos: Path, model: Path, query: str) -> tuple[str, int, float, float]:
    started = time.perf_counter()
    out = subprocess.run([str(kairos), "check", str(model), "-q", query, "--format", "json"],
                         capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    p = json.loads(out.stdout)["properties"][0]
    return p["verdict"], p["stats"]["visited"], p["stats"]["time_s"], wall


def measure(a: argparse.Namespace, text: str, n: int) -> float:
    safety, liveness = MODELS[a.model]
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / f"{a.model}-{n}.yaml"
        model.write_text(text.replace("  N: 4 ", f"  N: {n} ", 1))
        runs = {"safety": [], "liveness": []}
        for _ in range(a.repeat):
            for name, query in (("safety", safety), ("liveness", liveness)):
                runs[name].append(run(a.kairos, model, query))
    fastest, whole = {}, {}
    for name, rs in runs.items():
        times = [r[2] for r in rs]
        walls = [r[3] for r in rs]
        fastest[name] = min(times)
        whole[name] = min(walls)
        print(f"{a.model} N={n} {name:9} {rs[0][0]:10} {rs[0][1]:8} states  engine fastest {min(times):.4f} s, "
              f"median {statistics.median(times):.4f} s; whole process fastest {min(walls):.4f} s, "
              f"median {statistics.median(walls):.4f} s ({a.repeat} runs)")
    engine = fastest["liveness"] / fastest["safety"]
    process = whole["liveness"] / whole["safety"]
    ratio = max(engine, process)
    print(f"{a.model} N={n} ratio liveness / safety: engine {engine:.2f}, whole process {process:.2f} "
          f"(at most {a.max_ratio}); load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return ratio


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=sorted(MODELS), default="train-gate")
    ap.add_argument("--n", type=int, nargs="+", default=[5])
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--max-ratio", type=float, default=3.0)
    ap.add_argument("--kairos", type=Path, default=ROOT / "target" / "release" / "kairos")
    a = ap.parse_args()
    text = (ROOT / "models" / f"{a.model}.yaml").read_text()
    if "  N: 4 " not in text:
        sys.exit(f"models/{a.model}.yaml no longer sets `N: 4`; update this script")
    ratios = [measure(a, text, n) for n in a.n]
    return 0 if max(ratios) <= a.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
