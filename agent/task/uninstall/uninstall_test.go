package uninstall_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/systemd/fakesystemd"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/uninstall"
)

const purgeCall = "systemd-run --no-block --collect --quiet --unit=gpuaas-node-agent-purge " +
	"--description=Purge the gpuaas-node-agent package (node.uninstall) --setenv=DEBIAN_FRONTEND=noninteractive " +
	"/usr/bin/apt-get purge -y -o DPkg::Lock::Timeout=300 gpuaas-node-agent"

// TestUninstall: the unit is disabled before the report; after it, an
// installed package is purged from a transient unit (the agent's own
// stop comes from the package's prerm), anything else stops the unit.
func TestUninstall(t *testing.T) {
	status := func(s string) fakeexec.Func { return fakeexec.Output(s) }
	tests := []struct {
		name      string
		dpkgQuery fakeexec.Func // nil: not installed on the host
		systemd   fakeexec.Func // systemd-run; nil: not installed
		wantExec  []string      // after the report
		wantSD    []string      // after the report
		wantErr   bool
		details   string
	}{
		{"package installed", status("install ok installed"), fakeexec.Output(""),
			[]string{"dpkg-query -W -f=${Status} gpuaas-node-agent", purgeCall},
			[]string{"disable gpuaas-node-agent.service"}, false, "purge scheduled"},
		{"package not known to dpkg", func([]string) ([]byte, error) {
			return nil, fakeexec.Exit("dpkg-query", 1, "dpkg-query: no packages found matching gpuaas-node-agent")
		}, fakeexec.Output(""),
			[]string{"dpkg-query -W -f=${Status} gpuaas-node-agent"},
			[]string{"disable gpuaas-node-agent.service", "stop gpuaas-node-agent.service"}, false, "not installed"},
		{"only config files left", status("deinstall ok config-files"), fakeexec.Output(""),
			[]string{"dpkg-query -W -f=${Status} gpuaas-node-agent"},
			[]string{"disable gpuaas-node-agent.service", "stop gpuaas-node-agent.service"}, false, "not installed"},
		{"no dpkg on the host", nil, fakeexec.Output(""),
			[]string{"dpkg-query -W -f=${Status} gpuaas-node-agent"},
			[]string{"disable gpuaas-node-agent.service", "stop gpuaas-node-agent.service"}, false, "not installed"},
		{"systemd-run fails: the unit is stopped anyway", status("install ok installed"),
			func([]string) ([]byte, error) {
				return nil, fakeexec.Exit("systemd-run", 1, "Unit gpuaas-node-agent-purge.service already exists")
			},
			[]string{"dpkg-query -W -f=${Status} gpuaas-node-agent", purgeCall},
			[]string{"disable gpuaas-node-agent.service", "stop gpuaas-node-agent.service"}, true, "purge scheduled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := fakeexec.New(nil)
			if tt.dpkgQuery != nil {
				ex.Set("dpkg-query", tt.dpkgQuery)
			}
			if tt.systemd != nil {
				ex.Set("systemd-run", tt.systemd)
			}
			sd := fakesystemd.New()
			env := task.Env{Systemd: sd, Exec: ex, AgentUnit: "gpuaas-node-agent.service"}
			res, err := uninstall.Handler{}.Run(context.Background(), env, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"disable gpuaas-node-agent.service"}, sd.Calls()); diff != "" {
				t.Fatalf("before the report (-want +got):\n%s", diff)
			}
			if len(ex.CallsOf("systemd-run")) != 0 {
				t.Fatal("the purge started before the report")
			}
			if res.Details["package"] != tt.details {
				t.Errorf("details %v, want package=%q", res.Details, tt.details)
			}
			if res.After == nil {
				t.Fatal("no post-report step")
			}
			if err := res.After(context.Background()); (err != nil) != tt.wantErr {
				t.Errorf("post-report step: %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantExec, ex.Calls()); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSD, sd.Calls()); diff != "" {
				t.Errorf("systemd after the report (-want +got):\n%s", diff)
			}
		})
	}
}
