// The properties of struct-array-types.xml.

// stops
E<> Runner.stop
// stops-after-two-steps
A[] Runner.stop imply pc == 2
// second-step-recorded
E<> book[1][1].cmd == 2 and book[1][1].delay == 1
// never-third
E<> pc == 3
// diagonal-only
A[] book[0][1].cmd == 0 and book[1][0].delay == 0
