// The properties of one-based.xml.

// loads-within-capacity
A[] forall (i : id_t) load[i] <= cap[i]
// station-3-fills
E<> load[3] == 2
// station-1-never-over-1
E<> load[1] == 2
// all-full
E<> total() == 5
// never-over-5
E<> total() > 5
// station-2-busy-after-lane-3
E<> Station(2).busy and seen[2][3]
// no-deadlock
A[] not deadlock
