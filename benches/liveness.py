#!/usr/bin/env python3
"""Liveness vs safety on the train-gate model (issue 7's measure).

Runs `kairos check` on models/train-gate.yaml with N trains (default 5; its
`go` channel urgent, as in UPPAAL's version) for the safety property
`A[] not (Train(1).Cross and Train(2).Cross)` and the liveness property
`Train(1).Appr --> Train(1).Cross`, REPEAT times each, interleaved, and prints
the fastest and the median engine times (`time_s` of the JSON output), the
state counts and the ratio of the fastest times (the least disturbed by
other load on the machine). Exits 1 if it exceeds --max-ratio (default 3).

    python3 benches/liveness.py [--n 5] [--repeat 11] [--kairos target/release/kairos]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAFETY = "A[] not (Train(1).Cross and Train(2).Cross)"
LIVENESS = "Train(1).Appr --> Train(1).Cross"


def run(kairos: Path, model: Path, query: str) -> tuple[str, int, float]:
    out = subprocess.run([str(kairos), "check", str(model), "-q", query, "--format", "json"],
                         capture_output=True, text=True, check=False)
    p = json.loads(out.stdout)["properties"][0]
    return p["verdict"], p["stats"]["visited"], p["stats"]["time_s"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--max-ratio", type=float, default=3.0)
    ap.add_argument("--kairos", type=Path, default=ROOT / "target" / "release" / "kairos")
    a = ap.parse_args()
    text = (ROOT / "models" / "train-gate.yaml").read_text()
    if "  N: 4 " not in text:
        sys.exit("models/train-gate.yaml no longer sets `N: 4`; update this script")
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / f"train-gate-{a.n}.yaml"
        model.write_text(text.replace("  N: 4 ", f"  N: {a.n} ", 1))
        runs = {"safety": [], "liveness": []}
        for _ in range(a.repeat):
            for name, query in (("safety", SAFETY), ("liveness", LIVENESS)):
                runs[name].append(run(a.kairos, model, query))
    rows = {}
    for name, rs in runs.items():
        times = [r[2] for r in rs]
        rows[name] = min(times)
        print(f"{name:9} {rs[0][0]:10} {rs[0][1]:8} states  fastest {min(times):.4f} s, "
              f"median {statistics.median(times):.4f} s ({a.repeat} runs)")
    ratio = rows["liveness"] / rows["safety"]
    print(f"ratio liveness / safety: {ratio:.2f} (at most {a.max_ratio})")
    return 0 if ratio <= a.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
