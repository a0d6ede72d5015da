// Package sizing turns a latency SLO and a demand forecast into a datacenter GPU count, a memory
// check per model replica, the speculative-drafting lever and a cost per node-year, GPU-hour and
// million tokens. It is the engine of `fleetctl size`; docs/SIZING.md gives the method.
//
// Its inputs are one Assumptions file (YAML, fixed keys so two plans can be diffed), optionally
// overlaid with demand measured by the fleet (FleetDemand). Every figure in a Report keeps the
// inputs it came from, so a plan can be checked by hand and reproduced months later from the
// assumptions file it wrote.
//
// It is pure computation plus the file format: it must never touch the network, read the clock
// (callers pass "today"), or read files itself; callers hand it bytes and write what it returns.
package sizing
