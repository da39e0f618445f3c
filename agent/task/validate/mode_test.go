package validate_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/validate"
)

// The onboarding acceptance check is a validation whose evidence says
// its mode; a mode the agent does not know is refused, naming the field.
func TestOnboardingAcceptanceModeInTheEvidence(t *testing.T) {
	h := host(t)
	if err := os.RemoveAll(h.Path("/tmp/.keep-dir")); err != nil {
		t.Fatal(err)
	}
	env := h.Env()
	env.Policy.KeepUsers = []string{"ubuntu"}
	res, err := validate.Handler{}.Run(context.Background(), env, []byte(`{"mode":"onboarding_acceptance","dcgm":{"off":true}}`))
	if err != nil || res.Evidence == nil || !res.Evidence.Passed {
		t.Fatalf("acceptance on a clean host: %v %+v", err, res.Evidence)
	}
	if res.Evidence.Mode != "onboarding_acceptance" {
		t.Errorf("evidence mode = %q", res.Evidence.Mode)
	}
	_, err = validate.Handler{}.Run(context.Background(), env, []byte(`{"mode":"tenant"}`))
	if err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("unknown mode: %v", err)
	}
}
