package maassim

// testingResetReady is NODE_TESTING_RESET_READY_TRANSITIONS of MAAS 3.6.5.
var testingResetReady = []Status{
	StatusNew, StatusCommissioning, StatusFailedDeployment, StatusMissing, StatusRetired, StatusBroken,
	StatusFailedReleasing, StatusFailedDiskErasing, StatusFailedEnteringRescueMode,
	StatusFailedExitingRescueMode, StatusFailedTesting,
}

// transitions is NODE_TRANSITIONS of MAAS 3.6.5
// (src/maasserver/node_status.py): the statuses each status may move to.
var transitions = map[Status][]Status{
	StatusNew:                 {StatusCommissioning, StatusTesting, StatusMissing, StatusReady, StatusRetired, StatusBroken, StatusEnteringRescueMode},
	StatusCommissioning:       {StatusFailedCommissioning, StatusReady, StatusRetired, StatusMissing, StatusNew, StatusBroken, StatusTesting},
	StatusFailedCommissioning: {StatusCommissioning, StatusMissing, StatusRetired, StatusBroken, StatusEnteringRescueMode, StatusTesting},
	StatusReady:               {StatusEnteringRescueMode, StatusCommissioning, StatusAllocated, StatusReserved, StatusRetired, StatusMissing, StatusBroken, StatusTesting},
	StatusReserved:            {StatusReady, StatusAllocated, StatusRetired, StatusMissing, StatusBroken, StatusDiskErasing, StatusReleasing, StatusEnteringRescueMode, StatusTesting},
	StatusAllocated:           {StatusReady, StatusRetired, StatusMissing, StatusBroken, StatusDeploying, StatusDiskErasing, StatusReleasing, StatusEnteringRescueMode, StatusTesting},
	StatusReleasing: {StatusNew, StatusAllocated, StatusReserved, StatusDeployed, StatusReady, StatusBroken, StatusMissing, StatusFailedDeployment,
		StatusFailedDiskErasing, StatusFailedReleasing},
	StatusDeploying:        {StatusAllocated, StatusMissing, StatusBroken, StatusFailedDeployment, StatusDeployed, StatusReady, StatusDiskErasing, StatusReleasing},
	StatusFailedDeployment: {StatusAllocated, StatusMissing, StatusBroken, StatusReady, StatusDiskErasing, StatusReleasing, StatusEnteringRescueMode, StatusTesting},
	StatusDeployed:         {StatusAllocated, StatusMissing, StatusBroken, StatusReady, StatusDiskErasing, StatusReleasing, StatusEnteringRescueMode, StatusTesting},
	StatusMissing:          {StatusNew, StatusReady, StatusAllocated, StatusCommissioning, StatusBroken, StatusEnteringRescueMode, StatusTesting},
	StatusRetired:          {StatusNew, StatusReady, StatusMissing, StatusBroken, StatusEnteringRescueMode, StatusTesting},
	StatusBroken:           {StatusCommissioning, StatusReady, StatusDiskErasing, StatusReleasing, StatusEnteringRescueMode, StatusTesting, StatusDeployed},
	StatusFailedReleasing:  {StatusReleasing, StatusDiskErasing, StatusReady, StatusBroken, StatusTesting},
	StatusDiskErasing:      {StatusBroken, StatusDiskErasing, StatusFailedDiskErasing, StatusReady, StatusReleasing},
	StatusFailedDiskErasing: {StatusDiskErasing, StatusReleasing, StatusBroken, StatusAllocated, StatusReady, StatusEnteringRescueMode,
		StatusTesting},
	StatusEnteringRescueMode:       {StatusReady, StatusBroken, StatusDeployed, StatusRescueMode, StatusFailedEnteringRescueMode, StatusExitingRescueMode},
	StatusFailedEnteringRescueMode: {StatusBroken, StatusEnteringRescueMode, StatusExitingRescueMode, StatusTesting},
	StatusRescueMode:               {StatusBroken, StatusExitingRescueMode, StatusTesting},
	StatusExitingRescueMode: {StatusNew, StatusBroken, StatusFailedCommissioning, StatusReady, StatusReserved, StatusAllocated, StatusFailedDeployment,
		StatusDeployed, StatusMissing, StatusRetired, StatusFailedReleasing, StatusFailedDiskErasing, StatusRescueMode,
		StatusFailedEnteringRescueMode, StatusFailedExitingRescueMode, StatusFailedTesting},
	StatusFailedExitingRescueMode: {StatusBroken, StatusExitingRescueMode, StatusTesting},
	StatusTesting:                 append([]Status{StatusBroken, StatusNew, StatusReady, StatusReserved, StatusAllocated, StatusDeployed}, testingResetReady...),
	StatusFailedTesting:           {StatusCommissioning, StatusBroken, StatusMissing, StatusEnteringRescueMode, StatusTesting, StatusReady, StatusDeployed},
}

// CanTransition reports whether MAAS allows a node to move from one status
// to another.
func CanTransition(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// failedStatus is NODE_FAILURE_STATUS_TRANSITIONS.
var failedStatus = map[Status]Status{
	StatusCommissioning:      StatusFailedCommissioning,
	StatusDeploying:          StatusFailedDeployment,
	StatusReleasing:          StatusFailedReleasing,
	StatusDiskErasing:        StatusFailedDiskErasing,
	StatusEnteringRescueMode: StatusFailedEnteringRescueMode,
	StatusExitingRescueMode:  StatusFailedExitingRescueMode,
	StatusTesting:            StatusFailedTesting,
}
