// Package reconcile keeps the inventory honest against MAAS: it applies
// the drift rules of seed 001 §6.4 (plus hardware-sync drift, §9.1) to
// each observed machine, auto-quarantines through the lifecycle rules,
// records drift per node, takes nodes whose agent went silent offline and
// back, and exports the inventory metrics. It never fights a run: a
// machine owned by an active run is left to that run.
package reconcile
