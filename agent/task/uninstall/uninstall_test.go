package uninstall_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/systemd/fakesystemd"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/uninstall"
)

func TestUninstallDisablesThenStopsAfterReport(t *testing.T) {
	sd := fakesystemd.New()
	env := task.Env{Systemd: sd, AgentUnit: "gpuaas-node-agent.service"}
	res, err := uninstall.Handler{}.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"disable gpuaas-node-agent.service"}, sd.Calls()); diff != "" {
		t.Fatalf("before the report (-want +got):\n%s", diff)
	}
	if res.After == nil {
		t.Fatal("no post-report step to stop the unit")
	}
	if err := res.After(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"disable gpuaas-node-agent.service", "stop gpuaas-node-agent.service"}
	if diff := cmp.Diff(want, sd.Calls()); diff != "" {
		t.Errorf("after the report (-want +got):\n%s", diff)
	}
}
