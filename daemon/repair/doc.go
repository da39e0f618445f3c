// Package repair judges a repair run's diagnostics and builds the RMA
// bundle of a node whose part failed (issue 39): from the agent's
// node.validate_clean evidence (its GPUs, the DCGM diagnostic, the
// kernel's Xid lines), the node's recorded bill of materials and each
// failing part's history. It also starts repair runs (Starter), for the
// admin API and for the health verdicts and fault reports that
// quarantine a node.
package repair
