#!/usr/bin/env python3
"""The price of generality, side by side in one run (hyperfine):

    python3 benches/poly.py [--runs N] [--baseline BIN]

1. Timed models on zones (the DBM fast path) and on `--domain poly` (exact
   rational polyhedra, every clock at rate 1): Fischer (TChecker's family,
   N = 3 and 4, `--labels cs1,cs2`: the whole zone graph, mutual exclusion
   holds) and the railway crossing's safety property.
2. Every hybrid model of models/ with its spec (HyTech's crossing with
   `--param m=7` and `m=6`), each required to finish within 5 s.
3. With `--baseline BIN` (a release binary built before a change), the zone
   runs of (1) and of Fischer N = 7 on BIN too: the zones' fast path must not
   slow down.

Needs the release binary (`cargo build --release`) and hyperfine on the PATH.
Exit codes of kairos are ignored (`-i`): a spec's `unsupported` property
(exit 5) or violated property (exit 1) is part of the answer, not a failure.
Only the Python standard library is used.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "kairos"

TIMED = [
    ("fischer-3", ["models/bench/fischer_3.yaml", "--labels", "cs1,cs2"]),
    ("fischer-4", ["models/bench/fischer_4.yaml", "--labels", "cs1,cs2"]),
    ("railway-safe", ["models/railway-crossing.yaml", "-q", "A[] crossing imply Gate.down"]),
]
# Large enough for the zones' time to be measured: zones only, before/after.
FAST_PATH = [("fischer-7", ["models/bench/fischer_7.yaml", "--labels", "cs1,cs2"])]
HYBRID = [
    ("water-level", ["models/water-level.yaml", "specs/water-level.yaml"]),
    ("thermostat", ["models/thermostat.yaml", "specs/thermostat.yaml"]),
    ("stopwatch-scheduler", ["models/stopwatch-scheduler.yaml", "specs/stopwatch-scheduler.yaml"]),
    ("hytech-crossing m=7", ["models/hytech-crossing.yaml", "specs/hytech-crossing.yaml", "--param", "m=7"]),
    ("hytech-crossing m=6", ["models/hytech-crossing.yaml", "specs/hytech-crossing.yaml", "--param", "m=6"]),
]
HYBRID_LIMIT_S = 5.0


def run(commands: list[tuple[str, list[str]]], runs: int) -> dict[str, tuple[float, float]]:
    """Mean and standard deviation in seconds per named command, one hyperfine run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "times.json"
        argv = ["hyperfine", "-N", "-i", "--warmup", "1", "--runs", str(runs), "--export-json", str(out), "--style", "basic"]
        for name, cmd in commands:
            argv += ["--command-name", name, shlex.join(cmd)]
        done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            raise SystemExit(2)
        data = json.loads(out.read_text())
    return {r["command"]: (r["mean"], r["stddev"] or 0.0) for r in data["results"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="a release binary from before the change, for the zone runs")
    a = ap.parse_args()
    if shutil.which("hyperfine") is None:
        print("hyperfine is not on the PATH (cargo install hyperfine)", file=sys.stderr)
        return 2
    if not BIN.exists():
        print(f"{BIN} is missing: cargo build --release", file=sys.stderr)
        return 2
    commands = []
    for name, args in TIMED:
        commands.append((f"{name} zone", [str(BIN), "check", *args, "--domain", "zone"]))
        commands.append((f"{name} poly", [str(BIN), "check", *args, "--domain", "poly"]))
        if a.baseline:
            commands.append((f"{name} zone (baseline)", [str(a.baseline), "check", *args]))
    if a.baseline:
        for name, args in FAST_PATH:
            commands.append((f"{name} zone", [str(BIN), "check", *args]))
            commands.append((f"{name} zone (baseline)", [str(a.baseline), "check", *args]))
    for name, args in HYBRID:
        commands.append((name, [str(BIN), "check", *args]))
    t = run(commands, a.runs)
    fmt = lambda m, s: f"{m * 1000:9.1f} ± {s * 1000:6.1f} ms"
    print(f"{'timed model':<16} {'zones':>20} {'poly':>20} {'poly/zones':>11}" + (f" {'zones before':>20}" if a.baseline else ""))
    for name, _ in TIMED:
        z, p = t[f"{name} zone"], t[f"{name} poly"]
        line = f"{name:<16} {fmt(*z)} {fmt(*p)} {p[0] / z[0]:10.1f}x"
        if a.baseline:
            line += f" {fmt(*t[f'{name} zone (baseline)'])}"
        print(line)
    if a.baseline:
        for name, _ in FAST_PATH:
            now, before = t[f"{name} zone"], t[f"{name} zone (baseline)"]
            print(f"{name:<16} {fmt(*now)} {'':>20} {'':>11} {fmt(*before)}  (zones only)")
    print()
    print(f"{'hybrid model':<22} {'time':>20}  within {HYBRID_LIMIT_S:g} s")
    slow = 0
    for name, _ in HYBRID:
        m, s = t[name]
        ok = m < HYBRID_LIMIT_S
        slow += not ok
        print(f"{name:<22} {fmt(m, s)}  {'yes' if ok else 'NO'}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
