//This file mirrors specs/train-gate.yaml.

/*
one-train-on-the-bridge
Safety: at most one train on the bridge.
*/
A[] forall (i : id_t) forall (j : id_t) (i != j imply not (Train(i).Cross and Train(j).Cross))

/*
trains-0-1-never-both-cross
*/
E<> Train(0).Cross and Train(1).Cross

// queue-in-bounds
A[] len >= 0 and len <= N

// only-the-head-moves
A[] forall (i : id_t) (Train(i).Appr or Train(i).Start or Train(i).Cross) imply (Gate.Stopping or (len > 0 and list[0] == i))

// train-0-can-cross
E<> Train(0).Cross
// train-1-can-cross
E<> Train(1).Cross
// train-2-can-cross
E<> Train(2).Cross
// train-3-can-cross
E<> Train(3).Cross
// queue-can-fill
E<> len == N

// no-deadlock
A[] not deadlock

// approaching-train-crosses (liveness, as in UPPAAL's demo)
Train(0).Appr --> Train(0).Cross
