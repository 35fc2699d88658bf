#!/usr/bin/env python3
"""Explicit against BDD data on the sensor controller (models/sensor.yaml).

    python3 benches/bdd.py [--n 100,1000,10000,100000] [--timeout S] [--binary PATH]

For each N, writes models/sensor.yaml with `N` (and HIGH = 9N/10) replaced
into a temporary directory, then times the whole process `kairos check
MODEL --data explicit` and `--data bdd` side by side with hyperfine when it
is installed (else one run each, wall time and peak RSS of the child from
wait4). A run that exceeds the timeout is reported as such. Only the Python
standard library is used; Linux is assumed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def model_text(n: int) -> str:
    with open(os.path.join(ROOT, "models", "sensor.yaml")) as f:
        text = f.read()
    text = re.sub(r"(?m)^  N: \d+$", f"  N: {n}", text)
    return re.sub(r"(?m)^  HIGH: \d+$", f"  HIGH: {n * 9 // 10}", text)


def run_once(cmd: list[str], timeout: float) -> tuple[str, float, int]:
    """(outcome, seconds, peak RSS bytes) of one run of `cmd`."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            elapsed = time.monotonic() - start
            out = proc.stdout.read().decode() if proc.stdout else ""
            verdicts = ",".join(re.findall(r": (satisfied|violated|unknown|error)", out))
            code = os.waitstatus_to_exitcode(status)
            return (f"exit {code} [{verdicts}]", elapsed, usage.ru_maxrss * 1024)
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            return ("timeout", timeout, 0)
        time.sleep(0.01)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", default="100,1000,10000,100000")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "kairos"))
    a = ap.parse_args()
    hyperfine = shutil.which("hyperfine")
    print(f"{'N':>7} {'data':>8} {'seconds':>9} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in a.n.split(",")]:
            path = os.path.join(tmp, f"sensor_{n}.yaml")
            with open(path, "w") as f:
                f.write(model_text(n))
            for data in ["explicit", "bdd"]:
                cmd = [a.binary, "check", path, "--data", data, "--timeout", str(int(a.timeout))]
                outcome, secs, rss = run_once(cmd, a.timeout + 5)
                if hyperfine and outcome != "timeout":
                    out = os.path.join(tmp, "hf.json")
                    subprocess.run(
                        [hyperfine, "--runs", "3", "-N", "-i", "--export-json", out, " ".join(cmd)],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                    )
                    with open(out) as f:
                        secs = json.load(f)["results"][0]["mean"]
                print(f"{n:>7} {data:>8} {secs:>9.3f} {rss / 1e6:>8.1f}  {outcome}", flush=True)


if __name__ == "__main__":
    main()
