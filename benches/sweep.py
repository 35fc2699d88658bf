#!/usr/bin/env python3
"""Benchmark `kairos sweep` on one core against two, side by side in one run.

    python3 benches/sweep.py [--processes 3] [--grid 20] [--runs 10] [--binary PATH]

The model is models/fischer-param.yaml grown to N processes (default 3: its
constant N set, the parameters' bounds over 0..grid), written to
a temporary directory; the sweep checks mutual exclusion of P(1) and P(2) at
every point of a grid x grid integer grid (a = 1..grid, b = 1..grid), whole
process, with `--jobs 1` and with `--jobs 2`, in one hyperfine run (so both
see the same machine load). Prints hyperfine's table, then the mean times and
the speed-up; before timing, checks that both give the same verdicts and that
they are `b > a`.

The binary defaults to target/release/kairos (built with `cargo build
--release` when missing). Needs hyperfine on PATH; otherwise only the Python
standard library.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERY = "A[] not (P(1).cs and P(2).cs)"


def model_text(processes: int, grid: int) -> str:
    text = (ROOT / "models" / "fischer-param.yaml").read_text()
    grown = text.replace("  N: 2 ", f"  N: {processes} ")
    grown = re.sub(r"max: 10\}", f"max: {grid}}}", grown)
    assert grown.count(f"max: {grid}}}") == 2 and f"  N: {processes} " in grown, "the model's shape changed"
    return grown


def sweep_args(binary: Path, model: Path, grid: int, jobs: int) -> list[str]:
    return [str(binary), "sweep", str(model), "-q", QUERY, "--param", f"a=1..{grid}",
            "--param", f"b=1..{grid}", "--jobs", str(jobs), "--format", "csv", "--quiet"]


def verdicts(args: list[str]) -> dict[tuple[int, int], str]:
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    rows = [line.split(",") for line in out.splitlines()[1:]]
    return {(int(r[0]), int(r[1])): r[2] for r in rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processes", type=int, default=3)
    ap.add_argument("--grid", type=int, default=20)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--binary", type=Path, default=ROOT / "target" / "release" / "kairos")
    a = ap.parse_args()
    if shutil.which("hyperfine") is None:
        sys.exit("hyperfine is needed on PATH")
    if not a.binary.exists():
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / f"fischer{a.processes}-param.yaml"
        model.write_text(model_text(a.processes, a.grid))
        one, two = (sweep_args(a.binary, model, a.grid, j) for j in (1, 2))
        v1, v2 = verdicts(one), verdicts(two)
        assert v1 == v2, "one and two threads disagree"
        assert len(v1) == a.grid * a.grid
        wrong = [p for p, v in v1.items() if v != ("satisfied" if p[1] > p[0] else "violated")]
        assert not wrong, f"not b > a at {wrong[:5]}"
        report = Path(tmp) / "hyperfine.json"
        subprocess.run(["hyperfine", "--warmup", "1", "--runs", str(a.runs), "--export-json", str(report),
                        "-n", "jobs 1", shlex.join(one), "-n", "jobs 2", shlex.join(two)], check=True)
        results = {r["command"]: r for r in json.loads(report.read_text())["results"]}
    t1, t2 = results["jobs 1"]["mean"], results["jobs 2"]["mean"]
    print(f"\n{a.grid} x {a.grid} sweep, Fischer with {a.processes} processes, {a.binary}:")
    print(f"  --jobs 1: {t1:.3f} s ± {results['jobs 1']['stddev']:.3f}")
    print(f"  --jobs 2: {t2:.3f} s ± {results['jobs 2']['stddev']:.3f}")
    print(f"  speed-up: {t1 / t2:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
