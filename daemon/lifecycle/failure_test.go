package lifecycle

import "testing"

func TestFailureClassDefaultHandling(t *testing.T) {
	// Seed 001 §4.7: which classes retry automatically, how far, where they land.
	cases := []struct {
		class   FailureClass
		retry   bool
		max     int
		landsIn JobState
		action  Action
	}{
		{FailInputConfig, false, 1, JobFailedManualIntervention, ActionCancel},
		{FailSiteCapabilityMissing, false, 1, JobFailedManualIntervention, ActionResume},
		{FailUpstreamTransient, true, 5, JobFailedRetryable, ActionResume},
		{FailBMCPower, true, 3, JobFailedManualIntervention, ActionRetryStage},
		{FailPXEDiscovery, true, 3, JobFailedManualIntervention, ActionRetryStage},
		{FailHardwareMismatch, false, 1, JobFailedManualIntervention, ActionRetryStage},
		{FailDeployCloudInit, true, 1, JobFailedManualIntervention, ActionRestartClean},
		{FailPostDeployConnectivity, true, 3, JobFailedManualIntervention, ActionRetryStage},
		{FailHardwareSync, true, 3, JobFailedManualIntervention, ActionRetryStage},
		{FailAgentEnrollment, true, 2, JobFailedManualIntervention, ActionResume},
		{FailStateAmbiguity, false, 1, JobFailedManualIntervention, ActionAdoptObservedState},
		{FailAgentTask, false, 1, JobFailedManualIntervention, ActionRetryStage},
		{FailCleanupValidation, false, 1, JobFailedManualIntervention, ActionRetryStage},
		{FailOnboardingAcceptance, false, 1, JobFailedManualIntervention, ActionRetryStage},
	}
	if len(cases) != len(FailureClasses) {
		t.Fatalf("table covers %d classes, domain has %d", len(cases), len(FailureClasses))
	}
	for _, c := range cases {
		t.Run(string(c.class), func(t *testing.T) {
			h := c.class.DefaultHandling()
			if h.Retry != c.retry || h.MaxAttempts != c.max || h.LandsIn != c.landsIn || h.Recommended != c.action {
				t.Fatalf("handling = %+v", h)
			}
			if !h.Retry && h.MaxAttempts != 1 {
				t.Fatal("a class that does not retry must allow exactly one attempt")
			}
			if h.Advice == "" || !h.Recommended.Valid() || !c.class.Valid() {
				t.Fatal("every class needs advice and a valid recommended action")
			}
			if noop, err := CheckAction(h.Recommended, h.LandsIn); noop || err != nil {
				t.Fatalf("recommended %s is not applicable in %s: %v", h.Recommended, h.LandsIn, err)
			}
		})
	}
}

func TestFailureClassBounds(t *testing.T) {
	if got := FailDeployCloudInit.AttemptBound(2); got != 3 {
		t.Errorf("deploy retries follow site policy: got %d attempts for 2 retries, want 3", got)
	}
	if got := FailDeployCloudInit.AttemptBound(0); got != 1 {
		t.Errorf("with retries disabled: got %d, want 1", got)
	}
	if got := FailUpstreamTransient.AttemptBound(9); got != 5 {
		t.Errorf("policy must not change a fixed bound: got %d", got)
	}
	if h := FailureClass("mystery").DefaultHandling(); h.LandsIn != JobFailedManualIntervention || h.Retry {
		t.Errorf("unknown class must stop automation, got %+v", h)
	}
}
