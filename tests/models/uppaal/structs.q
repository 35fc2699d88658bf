// The properties of structs.xml.

// sends-bounded
A[] stats.sent <= 4
// all-sent
E<> stats.sent == 4
// some-lost
E<> stats.lost > 0
// hops-reach-3
E<> box[1].m.hops == 3
// held-can-be-fresh
E<> Node(1).held.m.fresh
// trail-marked
E<> box[2].trail[1] == 2 and Node(2).holding
// no-deadlock
A[] not deadlock
// held-header-cleared
E<> Node(1).held.h.src == 0 and Node(1).held.h.dst == 0 and stats.lost > 0
// held-header-set
E<> Node(2).held.h.src == 1 and Node(2).held.h.dst == 1
