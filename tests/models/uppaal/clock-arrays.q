// The properties of clock-arrays.xml.

// both-done
E<> T0.done and T1.done
// both-done-by-5
E<> T0.done and T1.done and t <= 5
// both-done-before-5
E<> T0.done and T1.done and t < 5
// t1-needs-3
A[] T1.done imply job[1] == 3
// progress-stops-while-waiting
A[] T0.wait imply job[0] < 2
// one-at-a-time
A[] not (T0.run and T1.run)
// t0-runs-1-alone
E<> T0.done and job[1] == 0 and t == 2
