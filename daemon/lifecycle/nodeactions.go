package lifecycle

// decommissionable are the node states a decommission may start from:
// the run then owns the node (the reconciler leaves it alone).
var decommissionable = map[NodeState]bool{NodeActive: true, NodeOffline: true, NodeQuarantined: true}

// CanDecommission says whether a decommission may start from node state
// s: active, offline or quarantined (NewDecommissionRun refuses others).
func CanDecommission(s NodeState) bool { return decommissionable[s] }

// CanActivate says whether an operator may activate a node in state s:
// only a quarantined node is returned to service by hand (seed 000 §3.3,
// quarantined -> active after the node is proven healthy again).
func CanActivate(s NodeState) bool { return s == NodeQuarantined }
