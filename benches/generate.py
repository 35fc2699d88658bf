#!/usr/bin/env python3
"""Generate kairos YAML translations of TChecker's benchmark families.

    benches/generate.py FAMILY N [-o DIR] [--format yaml|tck] [--labels a,b|none]
    benches/generate.py --verify [REFERENCE_DIR]
    benches/generate.py --list

FAMILY is one of the names in FAMILIES below; N is the family's size (number of
processes, stations, trains, ...). The model is written to DIR/FAMILY_N.yaml
(default DIR: models/bench), or to stdout with `-o -`.

Each family is first built as a TChecker system (processes, events, clocks,
ints, locations, edges, sync vectors), with the structure and default
parameters of TChecker's own generator scripts (see
/work/shared/reference/REFERENCE.md); that system is then translated to kairos
YAML by the rules of tests/models/tchecker/*.yaml:

 - every TChecker declaration is global: `clock:1:x` -> a global clock,
   `int:SIZE:MIN:MAX:INIT:v` -> a global variable `{range: [MIN, MAX], init:
   INIT}` (plus `size: SIZE` when SIZE > 1), in file order;
 - every `process:P` -> a template `P` without params, instantiated once, bare,
   in `system`, in file order;
 - locations keep names and attributes (initial, invariant, labels, committed,
   urgent); a name that is a kairos keyword, or that clashes with a label of
   the same template (both share one namespace in kairos), gets a trailing `_`;
 - `edge:P:src:dst:e{provided: G : do: S}` -> `{from, to, guard: "G", update:
   "S"}`, expressions copied verbatim (surrounding blanks trimmed), in file
   order;
 - an event of P in no sync vector is internal (no `sync`);
 - sync vectors must have exactly two strong participants (anything else is
   refused) and become binary channels, first participant sending (`!`):
   a vector whose two endpoints (P@e) occur in no other vector gets its own
   channel; the vectors that share one endpoint C@e whose other endpoints occur
   nowhere else share one channel (C on one side, the others on the other side:
   binary pairing then allows exactly those vectors); any other vector gets its
   own channel and the edges of an endpoint that is in several channels are
   emitted once per channel. Channel names: the event name when it is unique to
   the channel (`appr1`, `cd1`, `begin`, `take2`), else `event_Process`;
 - `out_of_range: disable` (TChecker disables an assignment out of range);
 - the `#labels=l1:l2` line -> a property `labels`: `E<> l1 and l2` (none when
   the file has no labels line); `--labels` overrides it.

`--verify` parses every .tck file of the reference folder whose family is known
here, builds the same family at the same N, and checks that both systems are
identical (declarations, processes, locations, edges, sync vectors, labels);
it also translates the parsed file and checks that the YAML is the same text.
`--format tck` writes the generated TChecker system instead (to run TChecker
itself at any N).

Only the Python standard library is used.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

KEYWORDS = {
    "A", "E", "U", "EF", "EG", "AF", "AG", "and", "or", "not", "imply",
    "true", "false", "forall", "exists", "deadlock",
}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# ---------------------------------------------------------------------------
# A TChecker system
# ---------------------------------------------------------------------------


@dataclass
class Decl:
    kind: str  # "int" | "clock"
    name: str
    size: int = 1
    lo: int = 0
    hi: int = 0
    init: int = 0
    owner: str | None = None  # process it is written under (all are global)


@dataclass
class Location:
    name: str
    initial: bool = False
    invariant: str | None = None
    labels: list[str] = field(default_factory=list)
    committed: bool = False
    urgent: bool = False


@dataclass
class Edge:
    src: str
    dst: str
    event: str
    guard: str | None = None
    do: str | None = None


@dataclass
class Process:
    name: str
    locations: list[Location] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def loc(self, name, *, initial=False, invariant=None, labels=(), committed=False, urgent=False):
        self.locations.append(Location(name, initial, invariant, list(labels), committed, urgent))

    def edge(self, src, dst, event, guard=None, do=None):
        self.edges.append(Edge(src, dst, event, guard, do))


@dataclass
class System:
    name: str
    labels: list[str] | None = None
    events: list[str] = field(default_factory=list)
    decls: list[Decl] = field(default_factory=list)
    processes: list[Process] = field(default_factory=list)
    # a vector is a list of (process, event, weak)
    syncs: list[list[tuple[str, str, bool]]] = field(default_factory=list)
    doc: str = ""

    def process(self, name) -> Process:
        p = Process(name)
        self.processes.append(p)
        return p

    def int_(self, name, lo, hi, init, size=1, owner=None):
        self.decls.append(Decl("int", name, size, lo, hi, init, owner))

    def clock(self, name, size=1, owner=None):
        self.decls.append(Decl("clock", name, size, owner=owner))

    def sync(self, *parts):
        vec = []
        for part in parts:
            weak = part.endswith("?")
            proc, event = part.rstrip("?").split("@")
            vec.append((proc, event, weak))
        self.syncs.append(vec)


# ---------------------------------------------------------------------------
# Families (structure and default parameters of TChecker's generators)
# ---------------------------------------------------------------------------


def fischer(n: int, k: int = 10) -> System:
    """Fischer's mutual exclusion, n processes, delay K."""
    s = System(f"fischer_{n}_{k}", labels=[f"cs{i}" for i in range(1, n + 1)])
    s.doc = f"Fischer's mutual exclusion protocol, {n} processes, K = {k}."
    s.events = ["tau"]
    s.int_("id", 0, n, 0)
    for i in range(1, n + 1):
        p = s.process(f"P{i}")
        x = f"x{i}"
        s.clock(x, owner=p.name)
        p.loc("A", initial=True)
        p.loc("req", invariant=f"{x}<={k}")
        p.loc("wait")
        p.loc("cs", labels=[f"cs{i}"])
        p.edge("A", "req", "tau", guard="id==0", do=f"{x}=0")
        p.edge("req", "wait", "tau", guard=f"{x}<={k}", do=f"{x}=0;id={i}")
        p.edge("wait", "req", "tau", guard="id==0", do=f"{x}=0")
        p.edge("wait", "cs", "tau", guard=f"{x}>{k}&&id=={i}")
        p.edge("cs", "A", "tau", do="id=0")
    return s


def csmacd(n: int, lam: int = 808, sigma: int = 26) -> System:
    """CSMA/CD: a bus and n stations (lambda = frame time, sigma = propagation)."""
    s = System(f"csmacd_{n}_{lam}_{sigma}", labels=None)
    s.doc = f"CSMA/CD protocol, a bus and {n} stations, lambda = {lam}, sigma = {sigma}."
    s.events = ["tau", "begin", "busy", "end", "cd"] + [f"cd{i}" for i in range(1, n + 1)]
    b = s.process("Bus")
    s.int_("j", 1, n + 1, 1, owner="Bus")
    s.clock("y", owner="Bus")
    b.loc("Idle", initial=True)
    b.loc("Active")
    b.loc("Collision", invariant=f"y<{sigma}")
    b.loc("Loop", committed=True)
    b.edge("Idle", "Active", "begin", do="y=0")
    b.edge("Active", "Collision", "begin", guard=f"y<{sigma}", do="y=0")
    b.edge("Active", "Active", "busy", guard=f"y>={sigma}")
    b.edge("Active", "Idle", "end", do="y=0")
    b.edge("Collision", "Loop", "tau", guard=f"y<{sigma}", do="j=1")
    b.edge("Loop", "Idle", "tau", guard=f"j=={n}+1&&y<{sigma}", do="y=0;j=1")
    for i in range(1, n + 1):
        b.edge("Loop", "Loop", f"cd{i}", guard=f"j=={i}", do="j=j+1")
    for i in range(1, n + 1):
        p = s.process(f"Station{i}")
        x = f"x{i}"
        s.clock(x, owner=p.name)
        p.loc("Wait", initial=True)
        p.loc("Start", invariant=f"{x}<={lam}")
        p.loc("Retry", invariant=f"{x}<2*{sigma}")
        p.edge("Wait", "Start", "begin", do=f"{x}=0")
        p.edge("Wait", "Retry", "busy", do=f"{x}=0")
        p.edge("Wait", "Wait", "cd", do=f"{x}=0")
        p.edge("Wait", "Retry", "cd", do=f"{x}=0")
        p.edge("Start", "Wait", "end", guard=f"{x}=={lam}", do=f"{x}=0")
        p.edge("Start", "Retry", "cd", guard=f"{x}<{sigma}", do=f"{x}=0")
        p.edge("Retry", "Start", "begin", guard=f"{x}<2*{sigma}", do=f"{x}=0")
        p.edge("Retry", "Retry", "busy", guard=f"{x}<2*{sigma}", do=f"{x}=0")
        p.edge("Retry", "Retry", "cd", guard=f"{x}<2*{sigma}", do=f"{x}=0")
        s.sync("Bus@begin", f"{p.name}@begin")
        s.sync("Bus@busy", f"{p.name}@busy")
        s.sync(f"Bus@cd{i}", f"{p.name}@cd")
        s.sync("Bus@end", f"{p.name}@end")
    return s


def fddi(n: int, sa: int = 20, ttrt: int | None = None) -> System:
    """FDDI token ring: n stations and the ring (TTRT = 50 n, SA = 20)."""
    ttrt = 50 * n if ttrt is None else ttrt
    s = System(f"fddi_{n}_{ttrt}_{sa}_0", labels=None)
    s.doc = f"FDDI token-ring protocol, {n} stations and the ring, TTRT = {ttrt}, SA = {sa}."
    s.events = ["tau", "TT", "RT"]
    for i in range(1, n + 1):
        s.events += [f"TT{i}", f"RT{i}"]
    for i in range(1, n + 1):
        p = s.process(f"P{i}")
        trt, xa, xb = f"trt{i}", f"xA{i}", f"xB{i}"
        for c in (trt, xa, xb):
            s.clock(c, owner=p.name)
        p.loc("q0", initial=True)
        p.loc("q1", invariant=f"{trt}<={sa}")
        p.loc("q2", invariant=f"{trt}<={sa}")
        p.loc("q3", invariant=f"{xa}<={ttrt + sa}")
        p.loc("q4")
        p.loc("q5", invariant=f"{trt}<={sa}")
        p.loc("q6", invariant=f"{trt}<={sa}")
        p.loc("q7", invariant=f"{xb}<={ttrt + sa}")
        p.edge("q0", "q1", "TT", guard=f"{trt}>={ttrt}", do=f"{trt}=0;{xb}=0")
        p.edge("q0", "q2", "TT", guard=f"{trt}<{ttrt}", do=f"{trt}=0;{xb}=0")
        p.edge("q1", "q4", "RT", guard=f"{trt}=={sa}")
        p.edge("q2", "q3", "tau", guard=f"{trt}=={sa}")
        p.edge("q3", "q4", "RT")
        p.edge("q4", "q5", "TT", guard=f"{trt}>={ttrt}", do=f"{trt}=0;{xa}=0")
        p.edge("q4", "q6", "TT", guard=f"{trt}<{ttrt}", do=f"{trt}=0;{xa}=0")
        p.edge("q5", "q0", "RT", guard=f"{trt}=={sa}")
        p.edge("q6", "q7", "tau", guard=f"{trt}=={sa}")
        p.edge("q7", "q0", "RT")
    r = s.process("R")
    s.clock("t", owner="R")
    for i in range(1, n + 1):
        r.loc(f"q{i}", initial=(i == 1), invariant="t<=0")
        r.loc(f"r{i}")
    for i in range(1, n + 1):
        r.edge(f"q{i}", f"r{i}", f"TT{i}", guard="t==0")
        r.edge(f"r{i}", f"q{i % n + 1}", f"RT{i}", do="t=0")
    for i in range(1, n + 1):
        s.sync(f"P{i}@TT", f"R@TT{i}")
        s.sync(f"P{i}@RT", f"R@RT{i}")
    return s


def train_gate(n: int) -> System:
    """Train-gate controller with a FIFO of stopped trains, n trains."""
    s = System(f"train_gate_{n}", labels=[f"cross{i}" for i in range(1, n + 1)])
    s.doc = f"Train-gate controller (the gate keeps a circular FIFO of stopped trains), {n} trains."
    s.events = ["tau", "go", "appr", "leave", "stop"]
    for i in range(1, n + 1):
        s.events += [f"go{i}", f"appr{i}", f"leave{i}", f"stop{i}"]
    g = s.process("Gate")
    s.int_("buffer", 1, n, 1, size=n, owner="Gate")
    s.int_("head", 0, n - 1, 0, owner="Gate")
    s.int_("length", 0, n, 0, owner="Gate")
    g.loc("Free", initial=True)
    g.loc("Occ")
    g.loc("Transient", committed=True)
    for i in range(1, n + 1):
        g.edge("Free", "Occ", f"go{i}", guard=f"length>0&&buffer[head]=={i}")
        g.edge("Free", "Occ", f"appr{i}", guard="length==0", do=f"buffer[(head+length)%{n}]={i};length=length+1")
        g.edge("Occ", "Transient", f"appr{i}", do=f"buffer[(head+length)%{n}]={i};length=length+1")
        g.edge("Occ", "Free", f"leave{i}", guard=f"length>0&&buffer[head]=={i}", do=f"head=(head+1)%{n};length=length-1")
        g.edge("Transient", "Occ", f"stop{i}", guard=f"length>0&&buffer[(head+length-1)%{n}]=={i}")
    for i in range(1, n + 1):
        t = s.process(f"Train{i}")
        x = f"x{i}"
        s.clock(x, owner=t.name)
        t.loc("Safe", initial=True)
        t.loc("Appr", invariant=f"{x}<=20")
        t.loc("Stop")
        t.loc("Start", invariant=f"{x}<=15")
        t.loc("Cross", invariant=f"{x}<=5", labels=[f"cross{i}"])
        t.edge("Safe", "Appr", "appr", do=f"{x}=0")
        t.edge("Appr", "Cross", "tau", guard=f"{x}>=10", do=f"{x}=0")
        t.edge("Appr", "Stop", "stop", guard=f"{x}<=10")
        t.edge("Stop", "Start", "go", do=f"{x}=0")
        t.edge("Start", "Cross", "tau", guard=f"{x}>=7", do=f"{x}=0")
        t.edge("Cross", "Safe", "leave", guard=f"{x}>=3")
        for e in ("appr", "stop", "go", "leave"):
            s.sync(f"{t.name}@{e}", f"Gate@{e}{i}")
    return s


def critical_region(n: int, t: int = 10) -> System:
    """Critical region: a counter, n arbiters and n production cells."""
    s = System(f"critical_region_{n}_{t}", labels=[f"error{i}" for i in range(1, n + 1)])
    s.doc = f"Critical region: a counter, {n} arbiters and {n} production cells, T = {t}."
    s.events = ["tau"]
    for i in range(1, n + 1):
        s.events += [f"enter{i}", f"exit{i}"]
    s.int_("id", 0, n, 0)
    c = s.process("counter")
    c.loc("I", initial=True)
    c.loc("C")
    c.edge("I", "C", "tau", guard="id==0", do="id=1")
    c.edge("C", "C", "tau", guard=f"id<{n}", do="id=id+1")
    c.edge("C", "C", "tau", guard=f"id=={n}", do="id=1")
    for i in range(1, n + 1):
        a = s.process(f"arbiter{i}")
        a.loc("req", initial=True)
        a.loc("ack")
        a.edge("req", "ack", f"enter{i}", guard=f"id=={i}", do="id=0")
        a.edge("ack", "req", f"exit{i}", do=f"id={i}")
    for i in range(1, n + 1):
        p = s.process(f"prodcell{i}")
        x = f"x{i}"
        s.clock(x, owner=p.name)
        p.loc("not_ready", initial=True)
        p.loc("testing", invariant=f"{x}<={t}")
        p.loc("requesting")
        p.loc("critical", invariant=f"{x}<={2 * t}")
        p.loc("testing2", invariant=f"{x}<={t}")
        p.loc("safe", labels=[f"safe{i}"])
        p.loc("error", labels=[f"error{i}"])
        p.edge("not_ready", "testing", "tau", guard=f"{x}<={2 * t}", do=f"{x}=0")
        p.edge("testing", "not_ready", "tau", guard=f"{x}>={t}", do=f"{x}=0")
        p.edge("testing", "requesting", "tau", guard=f"{x}<={t - 1}")
        p.edge("requesting", "critical", f"enter{i}", do=f"{x}=0")
        p.edge("critical", "error", "tau", guard=f"{x}>={2 * t}")
        p.edge("critical", "testing2", f"exit{i}", guard=f"{x}<={t - 1}", do=f"{x}=0")
        p.edge("testing2", "error", "tau", guard=f"{x}>={t}")
        p.edge("testing2", "safe", "tau", guard=f"{x}<={t - 1}")
    for i in range(1, n + 1):
        s.sync(f"arbiter{i}@enter{i}", f"prodcell{i}@enter{i}")
        s.sync(f"arbiter{i}@exit{i}", f"prodcell{i}@exit{i}")
    return s


def dining_philosophers(n: int, acquire: int = 3, eat: int = 10, release: int = 0) -> System:
    """Dining philosophers: n philosophers and n forks (timeouts 3/10/0)."""
    s = System(f"dining_philosophers_{n}_{acquire}_{eat}_{release}", labels=[f"eating{i}" for i in range(1, n + 1)])
    s.doc = f"Dining philosophers, {n} philosophers and {n} forks, timeouts {acquire}/{eat}/{release}."
    s.events = ["tau"]
    for i in range(1, n + 1):
        s.events += [f"take{i}", f"release{i}"]
    for i in range(1, n + 1):
        p = s.process(f"P{i}")
        x = f"x{i}"
        left = (i - 2) % n + 1  # the fork taken first: i-1, cyclically
        s.clock(x, owner=p.name)
        p.loc("idle", initial=True)
        p.loc("acq", invariant=f"{x}<={acquire}")
        p.loc("eat", invariant=f"{x}<={eat}", labels=[f"eating{i}"])
        p.loc("rel", invariant=f"{x}<={release}")
        p.edge("idle", "acq", f"take{left}", do=f"{x}=0")
        p.edge("acq", "idle", f"release{left}", guard=f"{x}>={acquire}")
        p.edge("acq", "eat", f"take{i}", guard=f"{x}<={acquire}", do=f"{x}=0")
        p.edge("eat", "rel", f"release{i}", guard=f"{x}>={eat}", do=f"{x}=0")
        p.edge("rel", "idle", f"release{left}")
    for i in range(1, n + 1):
        f = s.process(f"F{i}")
        f.loc("free", initial=True)
        f.loc("taken")
        f.edge("free", "taken", f"take{i}")
        f.edge("taken", "free", f"release{i}")
    for i in range(1, n + 1):
        left = (i - 2) % n + 1
        s.sync(f"P{i}@take{left}", f"F{left}@take{left}")
        s.sync(f"P{i}@take{i}", f"F{i}@take{i}")
        s.sync(f"P{i}@release{left}", f"F{left}@release{left}")
        s.sync(f"P{i}@release{i}", f"F{i}@release{i}")
    return s


def leader_election(n: int, timeout: int = 4) -> System:
    """Leader election on a ring of n candidates, watched by a stopwatch process."""
    s = System(f"leader_election_{n}_{timeout}", labels=["error"])
    s.doc = f"Leader election on a ring of {n} candidates and a watchdog (timeout {timeout})."
    s.events = ["tau"]
    for i in range(1, n + 1):
        s.events += [f"finished{i}", f"lock{i}", f"unlock{i}"]
    for i in range(1, n + 1):
        s.int_(f"in{i}", 1, n, i)
        s.int_(f"out{i}", 1, n, i)
    for i in range(1, n + 1):
        c = s.process(f"C{i}")
        x = f"x{i}"
        prev = (i - 2) % n + 1
        s.clock(x, owner=c.name)
        c.loc("eval", invariant=f"{x}<=1")
        c.loc("init", initial=True, invariant=f"{x}<=0")
        c.loc("leader")
        c.loc("read", invariant=f"{x}<=1")
        c.loc("release", invariant=f"{x}<=1")
        c.loc("wait_prev", invariant=f"{x}<=0")
        c.loc("wait_succ")
        c.loc("wait_succ_read_out")
        c.edge("eval", "leader", f"finished{i}", guard=f"in{i}=={i}")
        c.edge("eval", "wait_succ", "tau", guard=f"in{i}!={i}", do=f"out{i}=in{i}")
        c.edge("init", "read", f"lock{prev}", do=f"{x}=0")
        c.edge("init", "wait_succ_read_out", f"lock{i}")
        c.edge("read", "release", "tau", do=f"in{i}=out{prev}")
        c.edge("release", "eval", f"unlock{prev}")
        c.edge("wait_prev", "read", f"lock{prev}", do=f"{x}=0")
        c.edge("wait_succ", "wait_succ_read_out", f"lock{i}")
        c.edge("wait_succ_read_out", "wait_prev", f"unlock{i}", do=f"{x}=0")
    w = s.process("S")
    s.clock("z", owner="S")
    w.loc("error", labels=["error"])
    w.loc("init", initial=True)
    w.loc("safe")
    w.edge("init", "error", "tau", guard=f"z>{timeout}")
    for i in range(1, n + 1):
        w.edge("init", "safe", f"finished{i}", guard=f"z<={timeout}")
    for i in range(1, n + 1):
        prev = (i - 2) % n + 1
        s.sync(f"C{i}@lock{prev}", f"C{prev}@lock{prev}")
        s.sync(f"C{i}@unlock{prev}", f"C{prev}@unlock{prev}")
        s.sync(f"C{i}@finished{i}", f"S@finished{i}")
    return s


def corsso(n: int) -> System:
    """CorSSO authentication: n independent processes (parameters 2_10_1_2)."""
    s = System(f"CorSSO_{n}_2_10_1_2", labels=[f"access{i}" for i in range(1, n + 1)])
    s.doc = f"CorSSO single sign-on, {n} processes (parameters 2, 10, 1, 2)."
    s.events = ["tau"]
    for i in range(1, n + 1):
        p = s.process(f"P{i}")
        x, y, a, pp = f"x{i}", f"y{i}", f"a{i}", f"p{i}"
        s.clock(x, owner=p.name)
        s.clock(y, owner=p.name)
        s.int_(a, 0, 3, 0, owner=p.name)
        s.int_(pp, 0, 3, 0, owner=p.name)
        p.loc("auth", initial=True)
        p.loc("access", labels=[f"access{i}"])
        p.edge("auth", "auth", "tau", guard=f"{pp}>0 && {x}>2 && {a}<2", do=f"{a}={a}+1; {x}=0")
        p.edge("auth", "auth", "tau", guard=f"{pp}==0", do=f"{pp}=1; {a}=0; {x}=0; {y}=0")
        p.edge("auth", "access", "tau", guard=f"{y}<10 && {pp}==1 && {a} >= 1")
        p.edge("auth", "auth", "tau", guard=f"{pp}==0", do=f"{pp}=2; {a}=0; {x}=0; {y}=0")
        p.edge("auth", "access", "tau", guard=f"{y}<10 && {pp}==2 && {a} >= 2")
        p.edge("access", "auth", "tau", do=f"{pp}=0")
    return s


def ad94(n: int) -> System:
    """Alur and Dill's 1994 example (fig. 10); a single fixed automaton, N = 1."""
    if n != 1:
        raise SystemExit("ad94 is a single fixed automaton: only N = 1 exists")
    s = System("ad94_fig10", labels=["green"])
    s.doc = "Alur and Dill (1994), figure 10: one automaton, two clocks."
    s.clock("x")
    s.clock("y")
    s.events = ["a", "b", "c", "d"]
    p = s.process("P")
    p.loc("l0", initial=True)
    p.loc("l1")
    p.loc("l2")
    p.loc("l3", labels=["green"])
    p.edge("l0", "l1", "a", do="y=0")
    p.edge("l1", "l2", "b", guard="y==1")
    p.edge("l1", "l3", "c", guard="x<1")
    p.edge("l2", "l3", "c", guard="x<1")
    p.edge("l3", "l1", "a", guard="y<1", do="y=0")
    p.edge("l3", "l3", "d", guard="x>1")
    return s


FAMILIES = {
    "fischer": fischer,
    "csmacd": csmacd,
    "fddi": fddi,
    "train_gate": train_gate,
    "critical-region": critical_region,
    "dining-philosophers": dining_philosophers,
    "leader-election": leader_election,
    "corsso": corsso,
    "ad94": ad94,
}

# ---------------------------------------------------------------------------
# Reading TChecker's text format (for --verify)
# ---------------------------------------------------------------------------


def _attrs(text: str) -> dict[str, str]:
    """`key: value : key: value` (values contain no `:` in these files)."""
    out: dict[str, str] = {}
    text = text.strip()
    if not text:
        return out
    parts = text.split(":")
    if len(parts) % 2:
        raise ValueError(f"cannot read attributes {{{text}}}")
    for k, v in zip(parts[0::2], parts[1::2]):
        out[k.strip()] = v.strip()
    return out


def _split_braces(rest: str) -> tuple[str, dict[str, str]]:
    if "{" in rest:
        head, _, tail = rest.partition("{")
        if not tail.rstrip().endswith("}"):
            raise ValueError(f"unbalanced braces in {rest!r}")
        return head, _attrs(tail.rstrip()[:-1])
    return rest, {}


def parse_tck(text: str) -> System:
    s = System("")
    current = None
    procs: dict[str, Process] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = re.match(r"#\s*labels\s*=\s*(.*)$", line)
            if m and s.labels is None:
                s.labels = [l for l in m.group(1).strip().split(":") if l]
            continue
        kind, _, rest = line.partition(":")
        if kind == "system":
            s.name = _split_braces(rest)[0]
        elif kind == "event":
            s.events.append(_split_braces(rest)[0])
        elif kind == "process":
            current = _split_braces(rest)[0]
            procs[current] = s.process(current)
        elif kind == "clock":
            head, _ = _split_braces(rest)
            size, name = head.split(":")
            s.clock(name, int(size), owner=current)
        elif kind == "int":
            head, _ = _split_braces(rest)
            size, lo, hi, init, name = head.split(":")
            s.int_(name, int(lo), int(hi), int(init), int(size), owner=current)
        elif kind == "location":
            head, a = _split_braces(rest)
            pname, lname = head.split(":")
            labels = [l.strip() for l in a.get("labels", "").split(",") if l.strip()]
            procs[pname].loc(
                lname,
                initial="initial" in a,
                invariant=a.get("invariant") or None,
                labels=labels,
                committed="committed" in a,
                urgent="urgent" in a,
            )
        elif kind == "edge":
            head, a = _split_braces(rest)
            pname, src, dst, event = head.split(":")
            procs[pname].edge(src, dst, event, guard=a.get("provided") or None, do=a.get("do") or None)
        elif kind == "sync":
            s.sync(*_split_braces(rest)[0].split(":"))
        else:
            raise ValueError(f"unknown declaration {line!r}")
    return s


def _key(s: System):
    """Everything that makes the model (not the layout of the file)."""
    return (
        s.name,
        s.labels,
        s.events,
        [(d.kind, d.name, d.size, d.lo, d.hi, d.init) for d in s.decls],
        [(p.name, p.locations, p.edges) for p in s.processes],
        s.syncs,
    )


# ---------------------------------------------------------------------------
# Translation to kairos YAML
# ---------------------------------------------------------------------------


def _yaml_key(name: str) -> str:
    if name.lower() in {"true", "false", "null", "yes", "no", "on", "off"} or not IDENT.match(name):
        return f'"{name}"'
    return name


def _q(expr: str) -> str:
    assert '"' not in expr and "\\" not in expr
    return f'"{expr}"'


def _assigned(stmts: str | None) -> set[str]:
    out = set()
    for st in (stmts or "").split(";"):
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", st)
        if m and "=" in st:
            out.add(m.group(1))
    return out


def _names(expr: str | None) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr or ""))


def channels_of(s: System):
    """Binary channels for the sync vectors.

    Returns (channels, ends): channels is a list of names in creation order,
    ends maps (process, event) to a list of (channel, '!' | '?').
    """
    vectors = []
    for vec in s.syncs:
        if len(vec) != 2 or any(w for _, _, w in vec):
            raise SystemExit(
                "sync vector " + ":".join(f"{p}@{e}{'?' if w else ''}" for p, e, w in vec)
                + " is not two strong participants: no binary-channel translation"
            )
        (p1, e1, _), (p2, e2, _) = vec
        if p1 == p2:
            raise SystemExit(f"sync vector {p1}@{e1}:{p2}@{e2} synchronises a process with itself")
        vectors.append(((p1, e1), (p2, e2)))
    degree: dict[tuple[str, str], int] = {}
    for a, b in vectors:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1

    # groups: (center endpoint or None, [vector indices])
    groups: list[tuple[tuple[str, str] | None, list[int]]] = []
    star_of: dict[tuple[str, str], int] = {}
    for k, (a, b) in enumerate(vectors):
        center = None
        if degree[a] > 1 and degree[b] == 1:
            center = a
        elif degree[b] > 1 and degree[a] == 1:
            center = b
        leaf = b if center == a else a
        if center is not None and leaf[0] != center[0]:
            g = star_of.get(center)
            if g is not None and all(vectors[j][0][0] != leaf[0] and vectors[j][1][0] != leaf[0] for j in groups[g][1]):
                groups[g][1].append(k)
                continue
            if g is None:
                star_of[center] = len(groups)
                groups.append((center, [k]))
                continue
        groups.append((None, [k]))

    taken = {d.name for d in s.decls} | KEYWORDS
    for p in s.processes:
        for loc in p.locations:
            taken |= set(loc.labels)
    channels: list[str] = []
    ends: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def unique(event: str, members: list[int]) -> bool:
        users = {k for k, (a, b) in enumerate(vectors) if a[1] == event or b[1] == event}
        return users == set(members)

    for center, members in groups:
        if center is not None:
            candidates = [center[1], f"{center[1]}_{center[0]}"] if unique(center[1], members) else [f"{center[1]}_{center[0]}"]
        else:
            (p1, e1), (p2, e2) = vectors[members[0]]
            candidates = [e for e in (e2, e1) if unique(e, members)] + [f"{e1}_{p2}", f"{p1}_{e1}_{p2}_{e2}"]
        name = next((c for c in candidates if c not in taken and IDENT.match(c)), None)
        k = 2
        while name is None:
            c = f"{candidates[-1]}_{k}"
            name = c if c not in taken else None
            k += 1
        taken.add(name)
        channels.append(name)
        for m in members:
            a, b = vectors[m]
            if center is None:
                sides = [(a, "!"), (b, "?")]
            else:
                first_center_sends = vectors[members[0]][0] == center
                cdir, ldir = ("!", "?") if first_center_sends else ("?", "!")
                leaf = b if a == center else a
                sides = [(center, cdir), (leaf, ldir)]
            for ep, d in sides:
                lst = ends.setdefault(ep, [])
                if (name, d) not in lst:
                    lst.append((name, d))
    return channels, ends, vectors


def to_yaml(s: System, *, family: str | None = None, n: int | None = None, labels=None) -> str:
    for d in s.decls:
        if d.name in KEYWORDS or not IDENT.match(d.name):
            raise SystemExit(f"declaration `{d.name}` is not a valid kairos name")
    channels, ends, vectors = channels_of(s)
    labels = s.labels if labels is None else (labels or None)

    # Updates of two synchronised edges run in a fixed order in both tools
    # (kairos: sender first); refuse vectors where that order could matter.
    by_proc = {p.name: p for p in s.processes}
    for (p1, e1), (p2, e2) in vectors:
        for ea in (e for e in by_proc[p1].edges if e.event == e1):
            for eb in (e for e in by_proc[p2].edges if e.event == e2):
                wa, wb = _assigned(ea.do), _assigned(eb.do)
                if wa & (wb | _names(eb.do)) or wb & _names(ea.do):
                    raise SystemExit(f"updates of {p1}@{e1} and {p2}@{e2} interfere: order-dependent")

    out: list[str] = []
    w = out.append
    w("# Generated by benches/generate.py; do not edit (regenerate instead:")
    if family is not None:
        w(f"#   python3 benches/generate.py {family} {n}).")
    else:
        w("#   python3 benches/generate.py FAMILY N).")
    w(f"# Translation of TChecker's benchmark system `{s.name}`, as produced by")
    w("# TChecker's generator scripts (see /work/shared/reference/REFERENCE.md).")
    if s.doc:
        w(f"# {s.doc}")
    w("#")
    w("# Translation rules (those of tests/models/tchecker/*.yaml):")
    w("#  - TChecker declarations are all global: clocks and ints become global")
    w("#    clocks / variables, in file order.")
    w("#  - Each `process:P` is a template P without params, instantiated once.")
    w("#  - Locations keep names and attributes; a name that is a kairos keyword")
    w("#    (or a label of the same template) gets a trailing `_`.")
    w("#  - Edges keep file order; guards, invariants, updates are copied verbatim.")
    w("#  - Events in no sync vector are internal (no `sync`). Each two-party sync")
    w("#    vector P1@e1:P2@e2 is a binary channel, P1 sending; vectors sharing one")
    w("#    endpoint (whose other endpoints occur in no other vector) share a")
    w("#    channel, which then pairs exactly those vectors:")
    shown = 0
    for (p1, e1), (p2, e2) in vectors:
        if shown == 8:
            w(f"#      ... ({len(vectors) - shown} more)")
            break
        c1 = ",".join(c + d for c, d in ends[(p1, e1)])
        c2 = ",".join(c + d for c, d in ends[(p2, e2)])
        w(f"#      sync:{p1}@{e1}:{p2}@{e2}  ->  {p1} {c1}, {p2} {c2}")
        shown += 1
    if not vectors:
        w("#    (this system has no sync vectors)")
    w("#  - `out_of_range: disable`: an assignment out of an int's range disables")
    w("#    the transition, as in TChecker.")
    w("#  - The `#labels=` line becomes the property `labels`: E<> l1 and l2 ...")
    w("")
    w(f"model: {s.name}")
    w("")
    clocks = [d for d in s.decls if d.kind == "clock"]
    ints = [d for d in s.decls if d.kind == "int"]
    for d in clocks:
        if d.size != 1:
            raise SystemExit(f"clock array `{d.name}` (size {d.size}) has no kairos translation here")
    w("clocks: [" + ", ".join(d.name for d in clocks) + "]")
    w("")
    if ints:
        w("variables:")
        for d in ints:
            size = f", size: {d.size}" if d.size > 1 else ""
            w(f"  {d.name}: {{range: [{d.lo}, {d.hi}]{size}, init: {d.init}}}")
        w("")
    if channels:
        w("channels:")
        for c in channels:
            w(f"  {c}: binary")
        w("")
    synced = {ep for ep in ends}
    w("templates:")
    for p in s.processes:
        labels_here = {l for loc in p.locations for l in loc.labels}
        rename = {}
        used = set(labels_here)
        for loc in p.locations:
            new = loc.name
            while new in KEYWORDS or new in labels_here or (new != loc.name and new in used):
                new += "_"
            rename[loc.name] = new
            used.add(new)
        initial = [l for l in p.locations if l.initial]
        if len(initial) != 1:
            raise SystemExit(f"process {p.name}: {len(initial)} initial locations")
        w(f"  {_yaml_key(p.name)}:")
        w(f"    initial: {_yaml_key(rename[initial[0].name])}")
        w("    locations:")
        for loc in p.locations:
            attrs = []
            if loc.invariant:
                attrs.append(f"invariant: {_q(loc.invariant)}")
            if loc.labels:
                attrs.append("labels: [" + ", ".join(loc.labels) + "]")
            if loc.committed:
                attrs.append("committed: true")
            if loc.urgent:
                attrs.append("urgent: true")
            w(f"      {_yaml_key(rename[loc.name])}: {{{', '.join(attrs)}}}")
        if p.edges:
            w("    edges:")
        else:
            w("    edges: []")
        for e in p.edges:
            syncs = ends.get((p.name, e.event)) if (p.name, e.event) in synced else None
            for chan in syncs or [None]:
                parts = [f"from: {_yaml_key(rename[e.src])}", f"to: {_yaml_key(rename[e.dst])}"]
                if chan is not None:
                    parts.append(f"sync: {_q(chan[0] + chan[1])}")
                if e.guard:
                    parts.append(f"guard: {_q(e.guard)}")
                if e.do:
                    parts.append(f"update: {_q(e.do)}")
                w("      - {" + ", ".join(parts) + "}")
        w("")
    w("system:")
    for p in s.processes:
        w(f"  - {p.name}")
    w("")
    w("out_of_range: disable")
    if labels:
        w("")
        w("properties:")
        w("  - name: labels")
        w(f"    check: {_q('E<> ' + ' and '.join(labels))}")
    return "\n".join(out) + "\n"


def to_tck(s: System) -> str:
    out = []
    w = out.append
    if s.labels:
        w("#labels=" + ":".join(s.labels))
    w(f"system:{s.name}")
    w("")
    for e in s.events:
        w(f"event:{e}")
    w("")

    def decl(d: Decl):
        if d.kind == "clock":
            w(f"clock:{d.size}:{d.name}")
        else:
            w(f"int:{d.size}:{d.lo}:{d.hi}:{d.init}:{d.name}")

    for d in s.decls:
        if d.owner is None:
            decl(d)
    for p in s.processes:
        w("")
        w(f"process:{p.name}")
        for d in s.decls:
            if d.owner == p.name:
                decl(d)
        for loc in p.locations:
            a = []
            if loc.initial:
                a.append("initial:")
            if loc.invariant:
                a.append(f"invariant:{loc.invariant}")
            if loc.labels:
                a.append("labels:" + ",".join(loc.labels))
            if loc.committed:
                a.append("committed:")
            if loc.urgent:
                a.append("urgent:")
            w(f"location:{p.name}:{loc.name}{{{' : '.join(a)}}}")
        for e in p.edges:
            a = []
            if e.guard:
                a.append(f"provided:{e.guard}")
            if e.do:
                a.append(f"do:{e.do}")
            w(f"edge:{p.name}:{e.src}:{e.dst}:{e.event}{{{' : '.join(a)}}}")
    w("")
    for vec in s.syncs:
        w("sync:" + ":".join(f"{p}@{e}{'?' if wk else ''}" for p, e, wk in vec))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def build(family: str, n: int) -> System:
    if family not in FAMILIES:
        raise SystemExit(f"unknown family `{family}`; known: {', '.join(FAMILIES)}")
    if n < 1:
        raise SystemExit("N must be at least 1")
    return FAMILIES[family](n)


def verify(ref_dir: Path) -> int:
    failures = 0
    checked = 0
    for path in sorted(ref_dir.glob("*.tck")):
        m = re.match(r"^(.*)_(\d+)\.tck$", path.name)
        if not m or m.group(1) not in FAMILIES:
            print(f"skip   {path.name}: unknown family")
            continue
        family, n = m.group(1), int(m.group(2))
        ref = parse_tck(path.read_text())
        gen = build(family, n)
        checked += 1
        if _key(ref) != _key(gen):
            failures += 1
            print(f"DIFFER {path.name}")
            for what, x, y in zip(("name", "labels", "events", "decls", "processes", "syncs"), _key(ref), _key(gen)):
                if x != y:
                    print(f"   {what}: reference {x!r}\n   {' ' * len(what)}  generated {y!r}")
            continue
        ref.doc = gen.doc  # the one field a .tck file does not carry
        if to_yaml(ref) != to_yaml(gen):
            failures += 1
            print(f"DIFFER {path.name}: YAML translations differ")
            continue
        # round trip of the TChecker writer
        if _key(parse_tck(to_tck(gen))) != _key(gen):
            failures += 1
            print(f"DIFFER {path.name}: --format tck does not read back")
            continue
        print(f"same   {path.name}")
    print(f"{checked - failures}/{checked} reference files are the generated models")
    return 1 if failures else 0


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("family", nargs="?", help="one of: " + ", ".join(FAMILIES))
    ap.add_argument("n", nargs="?", type=int, help="size")
    ap.add_argument("-o", "--out", default=str(here / "models" / "bench"), help="output directory, or - for stdout")
    ap.add_argument("--format", choices=["yaml", "tck"], default="yaml")
    ap.add_argument("--labels", help="the query's labels, comma-separated, or `none` (default: the family's)")
    ap.add_argument("--verify", nargs="?", const="/work/shared/reference/tchecker", metavar="REFERENCE_DIR",
                    help="compare the generator with TChecker's files")
    ap.add_argument("--list", action="store_true", help="list the families")
    args = ap.parse_args(argv)
    if args.list:
        for name, fn in FAMILIES.items():
            print(f"{name:20} {fn.__doc__.strip()}")
        return 0
    if args.verify:
        return verify(Path(args.verify))
    if args.family is None or args.n is None:
        ap.error("FAMILY and N are required")
    s = build(args.family, args.n)
    if args.labels is not None:
        s.labels = [] if args.labels == "none" else [l for l in args.labels.split(",") if l]
    if args.format == "tck":
        text = to_tck(s)
        ext = "tck"
    else:
        text = to_yaml(s, family=args.family, n=args.n)
        ext = "yaml"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        os.makedirs(args.out, exist_ok=True)
        path = Path(args.out) / f"{args.family}_{args.n}.{ext}"
        path.write_text(text)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
