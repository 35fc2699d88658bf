//This file mirrors specs/fischer.yaml.

/* mutual-exclusion
   Safety: never two processes in the critical section. */
A[] forall (i : pid_t) forall (j : pid_t) (i != j imply not (P(i).cs and P(j).cs))
// mutual-exclusion-1-2
E<> P(1).cs and P(2).cs
// lock-held-in-cs
A[] forall (i : pid_t) P(i).cs imply id == i

// p1-can-enter
E<> P(1).cs
// p2-can-enter
E<> P(2).cs
// p3-can-enter
E<> P(3).cs
// p4-can-enter
E<> P(4).cs
// someone-can-enter
E<> exists (i : pid_t) P(i).cs

// no-deadlock
A[] not deadlock

// requester-eventually-enters
P(1).req --> P(1).cs
