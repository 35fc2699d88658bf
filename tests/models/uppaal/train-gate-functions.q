//The properties of UPPAAL's train-gate demo, on train-gate-functions.xml.

/*
one-train-on-the-bridge
*/
A[] forall (i : id_t) forall (j : id_t) (i != j imply not (Train(i).Cross and Train(j).Cross))

// trains-0-1-never-both-cross
E<> Train(0).Cross and Train(1).Cross

// queue-in-bounds
A[] len <= N

// train-0-can-cross
E<> Train(0).Cross
// train-1-can-cross
E<> Train(1).Cross
// train-3-can-cross
E<> Train(3).Cross
// queue-can-fill
E<> len == N

// no-deadlock
A[] not deadlock

// approaching-train-crosses
Train(0).Appr --> Train(0).Cross
