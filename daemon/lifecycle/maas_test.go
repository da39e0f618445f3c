package lifecycle

import "testing"

func TestMaasStatusEnum(t *testing.T) {
	// maas-api.md §4: number, enum name, status_name.
	cases := []struct {
		n          int
		name, text string
	}{
		{0, "NEW", "New"}, {1, "COMMISSIONING", "Commissioning"}, {2, "FAILED_COMMISSIONING", "Failed commissioning"},
		{3, "MISSING", "Missing"}, {4, "READY", "Ready"}, {5, "RESERVED", "Reserved"}, {6, "DEPLOYED", "Deployed"},
		{7, "RETIRED", "Retired"}, {8, "BROKEN", "Broken"}, {9, "DEPLOYING", "Deploying"}, {10, "ALLOCATED", "Allocated"},
		{11, "FAILED_DEPLOYMENT", "Failed deployment"}, {12, "RELEASING", "Releasing"},
		{13, "FAILED_RELEASING", "Releasing failed"}, {14, "DISK_ERASING", "Disk erasing"},
		{15, "FAILED_DISK_ERASING", "Failed disk erasing"}, {16, "RESCUE_MODE", "Rescue mode"},
		{17, "ENTERING_RESCUE_MODE", "Entering rescue mode"}, {18, "FAILED_ENTERING_RESCUE_MODE", "Failed to enter rescue mode"},
		{19, "EXITING_RESCUE_MODE", "Exiting rescue mode"}, {20, "FAILED_EXITING_RESCUE_MODE", "Failed to exit rescue mode"},
		{21, "TESTING", "Testing"}, {22, "FAILED_TESTING", "Failed testing"},
	}
	for _, c := range cases {
		s := MaasStatus(c.n)
		if s.Name() != c.name || s.String() != c.text || !s.Valid() {
			t.Errorf("%d: got %s/%q", c.n, s.Name(), s.String())
		}
		if back, ok := ParseMaasStatusName(c.text); !ok || back != s {
			t.Errorf("parse %q = %d, %v", c.text, back, ok)
		}
	}
	if MaasStatus(23).Valid() || MaasStatus(-1).Valid() {
		t.Error("23 and -1 are not MAAS statuses")
	}
	if _, ok := ParseMaasStatusName("Exploded"); ok {
		t.Error("unknown status_name must not parse")
	}
	if !MaasFailedDeployment.Failed() || !MaasBroken.Failed() || MaasDeployed.Failed() || MaasReleasing.Failed() {
		t.Error("Failed() misclassifies")
	}
}

func TestExpectedMaasState(t *testing.T) {
	on := func(s MaasStatus) Observed { return Observed{Present: true, Status: s, PowerState: "on"} }
	absent := Observed{}
	cases := []struct {
		node NodeState
		obs  Observed
		ok   bool
	}{
		{NodeBootstrapIssued, absent, true},
		{NodeEnrolling, on(MaasCommissioning), true},
		{NodeEnrolling, on(MaasFailedDeployment), false},
		{NodeEnrolling, absent, false},
		{NodeActive, on(MaasDeployed), true},
		{NodeActive, on(MaasReady), false},
		{NodeActive, absent, false},
		{NodeActive, Observed{Present: true, Status: MaasDeployed, PowerState: "off"}, true},
		{NodeOffline, on(MaasDeployed), true},
		{NodeQuarantined, on(MaasFailedTesting), true},
		{NodeQuarantined, absent, true},
		{NodeQuarantined, on(MaasDeploying), false},
		{NodeDraining, on(MaasReady), true},
		{NodeDraining, on(MaasCommissioning), false},
		{NodeRetired, Observed{Present: true, Status: MaasAllocated, PowerState: "off"}, true},
		{NodeRetired, on(MaasDeploying), false},
		{NodeRemoving, absent, true},
		{NodeRemoving, on(MaasDeployed), false},
		{NodeDeleted, on(MaasDeployed), true},
	}
	for _, c := range cases {
		if got := ExpectedMaasFor(c.node).Matches(c.obs); got != c.ok {
			t.Errorf("%s with %+v: got %v, want %v", c.node, c.obs, got, c.ok)
		}
	}
	for _, n := range NodeStates {
		if _, ok := expectedMaas[n]; !ok {
			t.Errorf("no expectation for %s", n)
		}
	}
}

func TestStageSpecs(t *testing.T) {
	if len(OnboardingStages) != 17 || len(DecommissionStages) != 13 {
		t.Fatalf("catalog sizes %d/%d, want 17/13", len(OnboardingStages), len(DecommissionStages))
	}
	for _, s := range OnboardingStages {
		sp := SpecOf(s)
		if sp.Stage != s {
			t.Errorf("%s: no spec", s)
		}
		if sp.Waits && (DefaultSitePolicy("x").TimeoutFor(sp.Timeout) <= 0 || !sp.TimeoutClass.Valid()) {
			t.Errorf("%s waits without a policy timeout and class", s)
		}
	}
	if SpecOf(StageDeployViaMaas).Reentry.SafeFromTop {
		t.Error("deploy must never be blindly re-entered")
	}
	if !SpecOf(StageCreateOrFindInMaas).Reentry.RefreshFirst {
		t.Error("create-or-find must refresh observed state first")
	}
	if SpecOf(StageWaitForDeployed).Compensation != CompensateReleaseToReady {
		t.Error("deploy failures compensate by releasing to Ready")
	}
	if SpecOf(StageWaitForAgentEnrollment).Compensation != CompensateLeaveDeployed {
		t.Error("post-deploy failures leave MAAS alone")
	}
}
