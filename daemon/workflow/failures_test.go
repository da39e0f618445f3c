package workflow_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/netcheck"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// failure is one way an onboarding breaks and where seed 000 §7 and seed
// 001 §4.7 say it must land.
type failure struct {
	name   string
	setup  func(t *testing.T, s *site) (hostname, ip string)
	stage  lifecycle.Stage
	class  lifecycle.FailureClass
	state  lifecycle.JobState
	action lifecycle.Action
}

func readyMachine(t *testing.T, s *site, hostname, ip string, spec maassim.HostSpec) string {
	spec.PowerAddress = ip
	sid, err := s.sim.AddMachine(spec, hostname, maassim.StatusReady)
	must(t, err)
	return sid
}

// afterDeploy runs f once, right after MAAS answered the run's deploy.
func afterDeploy(s *site, f func(sid string)) {
	var once sync.Once
	s.log.setAfter(func(call string) {
		if strings.HasSuffix(call, " deploy") {
			parts := strings.Split(call, "/")
			once.Do(func() { go f(parts[len(parts)-2]) })
		}
	})
}

var manualInterventionTriggers = []failure{
	{"conflicting discovery candidates", func(t *testing.T, s *site) (string, string) {
		readyMachine(t, s, "old-a", "10.0.9.1", maassim.HostSpec{})
		readyMachine(t, s, "old-b", "10.0.9.1", maassim.HostSpec{})
		return "c07u50", "10.0.9.1"
	}, lifecycle.StageCreateOrFindInMaas, lifecycle.FailStateAmbiguity, lifecycle.JobFailedManualIntervention, lifecycle.ActionAdoptObservedState},
	{"BOSS disk not found", func(t *testing.T, s *site) (string, string) {
		readyMachine(t, s, "c07u51", "10.0.9.2", maassim.HostSpec{NoBOSS: true})
		return "c07u51", "10.0.9.2"
	}, lifecycle.StageConfigureStorage, lifecycle.FailHardwareMismatch, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage},
	{"PXE interface not fixable", func(t *testing.T, s *site) (string, string) {
		readyMachine(t, s, "c07u52", "10.0.9.3", maassim.HostSpec{})
		_, err := s.store.UpdateSite(context.Background(), "site-1", func(x *lifecycle.Site) error { x.NodePXEIface = "eno9999"; return nil })
		must(t, err)
		return "c07u52", "10.0.9.3"
	}, lifecycle.StageEnsurePXEInterfaceAuto, lifecycle.FailHardwareMismatch, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage},
	{"machine deleted from MAAS mid-run", func(t *testing.T, s *site) (string, string) {
		readyMachine(t, s, "c07u53", "10.0.9.4", maassim.HostSpec{})
		afterDeploy(s, func(sid string) { s.sim.DeleteOutOfBand(context.Background(), sid) })
		return "c07u53", "10.0.9.4"
	}, lifecycle.StageWaitForDeployed, lifecycle.FailStateAmbiguity, lifecycle.JobFailedManualIntervention, lifecycle.ActionAdoptObservedState},
	{"repeated datasource failure after the bounded retry", func(t *testing.T, s *site) (string, string) {
		sid := readyMachine(t, s, "c07u54", "10.0.9.5", maassim.HostSpec{})
		must(t, s.sim.FailNextDeployment(context.Background(), sid, 2))
		return "c07u54", "10.0.9.5"
	}, lifecycle.StageClassifyDeployFailure, lifecycle.FailDeployCloudInit, lifecycle.JobFailedManualIntervention, lifecycle.ActionRestartClean},
	{"repeated post-deploy connectivity failure", func(t *testing.T, s *site) (string, string) {
		ln, port := sshd(t)
		ln.Close() // nothing answers on the deploy address
		s.deps.Reach = netcheck.TCP{Port: port, Timeout: time.Second}
		loopbackSSHIface(t, s, readyMachine(t, s, "c07u55", "10.0.9.6", maassim.HostSpec{}))
		return "c07u55", "10.0.9.6"
	}, lifecycle.StageEnsureHardwareSync, lifecycle.FailPostDeployConnectivity, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage},
	{"observed MAAS state disagrees (released out of band)", func(t *testing.T, s *site) (string, string) {
		readyMachine(t, s, "c07u56", "10.0.9.7", maassim.HostSpec{})
		afterDeploy(s, func(sid string) { s.sim.ReleaseOutOfBand(context.Background(), sid) })
		return "c07u56", "10.0.9.7"
	}, lifecycle.StageWaitForDeployed, lifecycle.FailStateAmbiguity, lifecycle.JobFailedManualIntervention, lifecycle.ActionAdoptObservedState},
}

var otherFailureClasses = []failure{
	{"MAAS token rejected", func(t *testing.T, s *site) (string, string) {
		s.secrets.put("kv/maas-sites/site-1/api-token", map[string]string{"token": "ck-x:tk-x:wrong"})
		return "c07u60", "10.0.9.10"
	}, lifecycle.StageLoadSiteConfig, lifecycle.FailSiteCapabilityMissing, lifecycle.JobFailedManualIntervention, lifecycle.ActionResume},
	{"BMC credentials missing in Vault", func(t *testing.T, s *site) (string, string) {
		s.secrets.put("kv/maas-sites/site-1/power/default", map[string]string{"user": "root"})
		return "c07u61", "10.0.9.11"
	}, lifecycle.StageResolvePowerCredentials, lifecycle.FailSiteCapabilityMissing, lifecycle.JobFailedManualIntervention, lifecycle.ActionResume},
	{"MAAS unavailable past the retry bound", func(t *testing.T, s *site) (string, string) {
		s.sim.SetOpFault("GET version", maassim.OpFault{ErrorRate: 1})
		return "c07u62", "10.0.9.12"
	}, lifecycle.StageLoadSiteConfig, lifecycle.FailUpstreamTransient, lifecycle.JobFailedRetryable, lifecycle.ActionResume},
	{"BMC dead on the PXE discovery path", func(t *testing.T, s *site) (string, string) {
		s.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
		return "c07u63", "10.0.9.13" // no simulated host answers there
	}, lifecycle.StageCreateOrFindInMaas, lifecycle.FailBMCPower, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage},
	{"site deleted", func(t *testing.T, s *site) (string, string) {
		_, err := s.store.UpdateSite(context.Background(), "site-1", func(x *lifecycle.Site) error { x.Status = lifecycle.SiteDeleted; return nil })
		must(t, err)
		return "c07u64", "10.0.9.14"
	}, lifecycle.StageLoadSiteConfig, lifecycle.FailInputConfig, lifecycle.JobFailedManualIntervention, lifecycle.ActionCancel},
}

func TestFailuresLandWhereTheSeedSays(t *testing.T) {
	for _, f := range append(manualInterventionTriggers, otherFailureClasses...) {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			host, ip := f.setup(t, s)
			r := s.wait(s.onboard(host, ip), 60*time.Second)
			if r.Status != f.state || r.FailureClass != f.class || r.CurrentStage != f.stage || r.RecommendedAction != f.action {
				t.Fatalf("got %s/%s at %s recommending %s (%s), want %s/%s at %s recommending %s\n%s",
					r.Status, r.FailureClass, r.CurrentStage, r.RecommendedAction, r.ErrorMessage,
					f.state, f.class, f.stage, f.action, s.events(r.ID))
			}
			if r.ErrorMessage == "" || r.ErrorCode == "" {
				t.Fatalf("read model lacks the error: %+v", r)
			}
		})
	}
}
