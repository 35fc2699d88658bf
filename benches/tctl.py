#!/usr/bin/env python3
"""The TCTL fixpoint engine next to the forward engine (issue 13's measure).

Fischer (models/bench/fischer_N.yaml, TChecker's family, K = 10) for
N = 4, 5, 6: `A[] not (cs1 and cs2)` by the forward engine and with
`--engine tctl`; the railway crossing (models/railway-crossing.yaml, 3
trains): its safety property both ways, and every property of
specs/railway-crossing.yaml that routes to the fixpoint engine. Each run
REPEAT times, interleaved; the fastest `time_s` (the least disturbed by
other load) and the median are printed, with the ratio tctl / forward.
Exits 1 if a railway property takes more than 2 s or Fischer 6 more than
60 s through the fixpoint engine. Last, every property of the railway
spec forced through the fixpoint engine: in one run (the forward pass
and the divergent states computed once, `tctl::Cache`) against one run
per property, the sums of `time_s`.

    python3 benches/tctl.py [--repeat 3] [--kairos target/release/kairos]
"""

import argparse
import json
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAILWAY = ROOT / "models" / "railway-crossing.yaml"
RAILWAY_SPEC = ROOT / "specs" / "railway-crossing.yaml"
SAFE = "A[] forall (i : 1..N) Train(i).on imply Gate.down"


def run(kairos: Path, model: Path, query: str, tctl: bool) -> tuple[str, str, float]:
    cmd = [str(kairos), "check", str(model), "-q", query, "--format", "json"]
    if tctl:
        cmd += ["--engine", "tctl"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    p = json.loads(out.stdout)["properties"][0]
    return p["verdict"], p["engine"], p["stats"]["time_s"]


def tctl_properties(kairos: Path) -> list[tuple[str, str]]:
    """The (name, check) pairs of the railway spec the default routes to tctl."""
    out = subprocess.run([str(kairos), "check", str(RAILWAY), str(RAILWAY_SPEC), "--format", "json"],
                         capture_output=True, text=True, check=False)
    return [(p["name"], p["formula"]) for p in json.loads(out.stdout)["properties"] if p["engine"] == "tctl"]


def measure(kairos: Path, model: Path, query: str, tctl: bool, repeat: int) -> tuple[str, float, float]:
    rs = [run(kairos, model, query, tctl) for _ in range(repeat)]
    times = [r[2] for r in rs]
    return rs[0][0], min(times), statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kairos", type=Path, default=ROOT / "target" / "release" / "kairos")
    a = ap.parse_args()
    ok = True
    print(f"{'case':42} {'verdict':10} {'forward s':>10} {'tctl s':>10} {'median tctl':>12} {'ratio':>7}")
    cases = [(f"fischer {n}: A[] not (cs1 and cs2)", ROOT / "models" / "bench" / f"fischer_{n}.yaml",
              "A[] not (cs1 and cs2)", 60.0) for n in (4, 5, 6)]
    cases.append(("railway: " + SAFE[:33], RAILWAY, SAFE, 2.0))
    for name, model, query, limit in cases:
        v, fwd, _ = measure(a.kairos, model, query, False, a.repeat)
        vt, t, med = measure(a.kairos, model, query, True, a.repeat)
        assert v == vt, f"{name}: forward {v}, tctl {vt}"
        ok &= t <= limit
        print(f"{name:42} {v:10} {fwd:10.4f} {t:10.4f} {med:12.4f} {t / max(fwd, 1e-6):7.1f}")
    for name, query in tctl_properties(a.kairos):
        v, t, med = measure(a.kairos, RAILWAY, query, False, a.repeat)
        ok &= t <= 2.0
        print(f"{'railway: ' + name:42} {v:10} {'-':>10} {t:10.4f} {med:12.4f} {'-':>7}")
    shared, alone, n = shared_analysis(a.kairos, a.repeat)
    print(f"{'railway spec, ' + str(n) + ' properties forced':42} {'one run':10} {alone:10.4f} {shared:10.4f} "
          f"{'':12} {shared / max(alone, 1e-6):7.2f}   (alone: one run per property; tctl: all in one run)")
    return 0 if ok else 1


def shared_analysis(kairos: Path, repeat: int) -> tuple[float, float, int]:
    """Sums of `time_s` over the railway spec forced through tctl: all in one run, and one run each
    (fastest of `repeat`). The properties the fixpoint engine refuses (`sup`/`inf`: no stats) are
    left out of both sums."""
    def one_run() -> list[tuple[str, float]]:
        out = subprocess.run([str(kairos), "check", str(RAILWAY), str(RAILWAY_SPEC), "--engine", "tctl",
                              "--format", "json"], capture_output=True, text=True, check=False)
        return [(p["formula"], p["stats"]["time_s"]) for p in json.loads(out.stdout)["properties"] if p["stats"]]
    together = [one_run() for _ in range(repeat)]
    queries = [q for q, _ in together[0]]
    shared = min(sum(t for _, t in r) for r in together)
    alone = min(sum(run(kairos, RAILWAY, q, True)[2] for q in queries) for _ in range(repeat))
    return shared, alone, len(queries)


if __name__ == "__main__":
    raise SystemExit(main())
