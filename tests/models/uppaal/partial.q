// The properties of partial.xml.

// thread-2-finishes
E<> Threads(2).done
// thread-3-never-starts
E<> Threads(3).working
// at-most-two-finish
A[] finished <= 2
// two-finish
E<> finished == 2
// started-before-working
A[] Threads(1).working imply started[1]
// starter-2-sends
E<> Starters(2).sent and Threads(1).waiting
