// The properties of arrays.xml.

// sorted-reachable
E<> q[0] == 0 and q[1] == 1 and q[2] == 3
// values-bounded
A[] q[0] <= 3 and P.r[2] <= 3
// all-three
E<> q[0] == 3 and q[1] == 3 and q[2] == 3
// r-copied
E<> P.r[0] == 2 and P.r[1] == 1 and P.r[2] == 2
// never-descending (violated: 3, 2, 1 is reachable)
A[] q[0] <= q[1] or q[1] <= q[2]
// temporaries-zero
A[] t == 0 and u == 0
