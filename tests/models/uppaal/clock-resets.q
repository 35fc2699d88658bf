// The properties of clock-resets.xml.

// three-rounds
E<> done == 3
// busy-bounded
A[] forall (i : id_t) Worker(i).work imply Worker(i).busy <= 3
// work-starts-at-2
E<> Worker(0).work && x[0] <= 2
// never-below-2
E<> Worker(0).work && x[0] < 2
// idle-busy-from-1
A[] Worker(0).idle && done > 0 imply Worker(0).busy >= 1
// finish-resets-x1
E<> Worker(1).idle && done > 0 && x[1] < x[0]
