//This file mirrors specs/railway-crossing.yaml (the queries UPPAAL can state).

/* gate-down-while-crossing
   Safety: the gate is down whenever a train is on the crossing. */
A[] forall (i : id_t) Train(i).on imply Gate.down

/* never-on-with-gate-up */
E<> Train(1).on and Gate.up

// train-1-can-cross
E<> Train(1).on
// train-2-can-cross
E<> Train(2).on
// train-3-can-cross
E<> Train(3).on
// two-trains-on-at-once
E<> Train(1).on && Train(2).on

// no-deadlock
A[] not deadlock

// count-in-bounds
A[] count >= 0 and count <= N
// count-zero-when-idle
A[] (Controller.idle imply count == 0)
// count-positive-when-busy
A[] (Controller.busy imply count >= 1)
// count-zero-means-all-far
A[] (count == 0 imply (forall (i : id_t) Train(i).far))
// all-trains-counted-at-once
E<> count == N

// longest-near
sup{Train(1).near}: Train(1).x
// earliest-on
inf{Train(1).on}: Train(1).x
// most-counted-and-far-clock
sup: count, Train(1).x
// fewest-counted-when-busy
inf{Controller.busy}: count
// longest-down
sup{Gate.down}: Gate.y
