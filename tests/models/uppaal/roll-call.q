// all-rounds-done
E<> Master.finished
// no-deadlock: the master stops after the last round
A[] not deadlock
// answers-in-bounds
A[] answered <= N and total <= N * ROUNDS
// idle-means-counted
A[] (Master.idle imply answered == 0)
// all-answers-counted
E<> total == N * ROUNDS
// a woken station has raised its flag
A[] (S1.woken imply heard[1])
// no-station-woken-while-idle
E<> S0.woken and Master.idle
// wakes-match-rounds
A[] forall (i : id_t) (Master.idle imply S0.wakes == rounds)
// the master answers within its invariant
A[] Master.idle imply t <= 4
