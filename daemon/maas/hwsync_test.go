package maas_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestHardwareSyncIntervalRoundTrip(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	if d, err := e.client.HardwareSyncInterval(ctx); err != nil || d != 15*time.Minute {
		t.Fatalf("default %v %v", d, err)
	}
	for _, d := range []time.Duration{5 * time.Minute, 90 * time.Minute, 2*time.Hour + 30*time.Second, 45 * time.Second} {
		if err := e.client.SetHardwareSyncInterval(ctx, d); err != nil {
			t.Fatalf("set %v: %v", d, err)
		}
		if got, err := e.client.HardwareSyncInterval(ctx); err != nil || got != d {
			t.Fatalf("read back %v, want %v (%v)", got, d, err)
		}
	}
	if err := e.client.SetHardwareSyncInterval(ctx, 0); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
		t.Fatalf("zero interval: %v", err)
	}
}

func TestEnableHWSync(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{})
	sid := ms[0].SystemID
	_, err := e.client.EnableHWSync(ctx, sid)
	if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != "enable_hw_sync" {
		t.Fatalf("on a Ready machine without an OS: %v", err)
	}
	if _, err := e.client.Deploy(ctx, sid, lifecycle.DeploySpec{DistroSeries: "noble"}); err != nil {
		t.Fatal(err)
	}
	e.advance(time.Hour)
	m, err := e.client.EnableHWSync(ctx, sid)
	if err != nil || !m.HWSyncEnabled || m.SyncInterval != 15*time.Minute || m.Status != lifecycle.MaasDeployed {
		t.Fatalf("on a Deployed machine: %+v %v", m, err)
	}
}

func TestRackControllersList(t *testing.T) {
	e := newEnv(t, 0)
	rcs, err := e.client.RackControllers(context.Background())
	if err != nil || len(rcs) != 1 || rcs[0].SystemID == "" || rcs[0].Version != "3.6.5" || rcs[0].Services["rackd"] != "running" {
		t.Fatalf("%+v %v", rcs, err)
	}
}

// userKey is a non-admin user's key on the simulator of newEnv.
const userKey = "ck-user:tk-user:ts-user-secret"

// TestAdminOnlyCallsRefuseAUserKey: a key of a user who is not a MAAS
// admin reads the configuration but may not set it, turn hardware sync
// on or read a machine token: 403 "This method is reserved for admin
// users.", the client's forbidden; whoami says so.
func TestAdminOnlyCallsRefuseAUserKey(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	c := e.newClient(t, userKey)
	if u, err := c.WhoAmI(ctx); err != nil || u.IsSuperuser || u.Username != "user" {
		t.Fatalf("whoami = %+v, %v; want user, not a superuser", u, err)
	}
	if _, err := c.HardwareSyncInterval(ctx); err != nil {
		t.Fatalf("get_config as a user: %v", err)
	}
	ms, err := c.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil || len(ms) != 1 {
		t.Fatalf("machines: %v", err)
	}
	for name, call := range map[string]func() error{
		"set_config":     func() error { return c.SetHardwareSyncInterval(ctx, 5*time.Minute) },
		"enable_hw_sync": func() error { _, err := c.EnableHWSync(ctx, ms[0].SystemID); return err },
		"get_token":      func() error { _, err := c.MachineToken(ctx, ms[0].SystemID); return err },
	} {
		if err := call(); lifecycle.ErrorCode(err) != lifecycle.CodeForbidden {
			t.Errorf("%s as a user: %v, want forbidden", name, err)
		}
	}
	if d, _ := e.client.HardwareSyncInterval(ctx); d != 15*time.Minute {
		t.Errorf("the refused set_config changed the interval to %v", d)
	}
}
