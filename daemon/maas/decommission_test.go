package maas_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// deployedMachine seeds a Deployed machine in e's simulator.
func deployedMachine(t *testing.T, e *env) string {
	t.Helper()
	sid, err := e.sim.AddMachine(maassim.HostSpec{}, "", maassim.StatusDeployed)
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

func wantMachine(t *testing.T, e *env, sid string, st lifecycle.MaasStatus, power string) lifecycle.Machine {
	t.Helper()
	m, err := e.client.Machine(context.Background(), sid)
	if err != nil || m.Status != st || (power != "" && m.PowerState != power) {
		t.Fatalf("machine %s: %s power %q (%v), want %s power %q", sid, m.Status, m.PowerState, err, st, power)
	}
	return m
}

func wantConflict(t *testing.T, err error, text string) {
	t.Helper()
	var le *lifecycle.Error
	if !errors.As(err, &le) || le.Code != lifecycle.CodeConflict || le.Msg != text {
		t.Fatalf("got %v, want conflict %q", err, text)
	}
}

// Each erase option the workflows send goes through Disk erasing, with the
// machine on, to Ready, powered off.
func TestReleaseWithEraseOptions(t *testing.T) {
	cases := []struct {
		name string
		o    lifecycle.ReleaseSpec
	}{
		{"quick", lifecycle.ReleaseSpec{Erase: lifecycle.EraseQuick, Comment: "tenant turnover"}},
		{"secure", lifecycle.ReleaseSpec{Erase: lifecycle.EraseSecure}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 0)
			sid := deployedMachine(t, e)
			m, err := e.client.Release(context.Background(), sid, c.o)
			if err != nil || m.Status != lifecycle.MaasDiskErasing {
				t.Fatalf("release: %s %v", m.Status, err)
			}
			wantMachine(t, e, sid, lifecycle.MaasDiskErasing, "on")
			e.advance(time.Hour)
			wantMachine(t, e, sid, lifecycle.MaasReady, "off")
		})
	}
}

// The fallback of a failed erase: deploy, mark_fixed and abort are refused
// with MAAS's texts; a release without erase brings the machine to Ready;
// it is then powered off and deleted through MAAS.
func TestEraseFailureFallback(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	sid := deployedMachine(t, e)
	if err := e.sim.FailNextErase(ctx, sid, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.Release(ctx, sid, lifecycle.ReleaseSpec{Erase: lifecycle.EraseSecure}); err != nil {
		t.Fatal(err)
	}
	e.advance(time.Hour)
	if m := wantMachine(t, e, sid, lifecycle.MaasFailedDiskErasing, ""); m.ErrorDescription != "Failed to erase disks." {
		t.Fatalf("error_description %q", m.ErrorDescription)
	}
	_, err := e.client.Deploy(ctx, sid, lifecycle.DeploySpec{})
	wantConflict(t, err, "Can't deploy a machine that is in the 'Failed disk erasing' state")
	_, err = e.client.MarkFixed(ctx, sid, "")
	wantConflict(t, err, "Can't mark a non-broken node as 'Ready'.")
	_, err = e.client.Abort(ctx, sid, "")
	wantConflict(t, err, "Cannot abort in current state: node "+sid+" is in state Failed disk erasing.")
	m, err := e.client.Release(ctx, sid, lifecycle.ReleaseSpec{Comment: "erase failed; releasing without erase"})
	if err != nil || m.Status != lifecycle.MaasReleasing {
		t.Fatalf("release without erase: %s %v", m.Status, err)
	}
	e.advance(time.Hour)
	wantMachine(t, e, sid, lifecycle.MaasReady, "off")
	if _, err := e.client.PowerOff(ctx, sid, false); err != nil {
		t.Fatal(err)
	}
	if err := e.client.DeleteMachine(ctx, sid); err != nil {
		t.Fatal(err)
	}
	var le *lifecycle.Error
	if err := e.client.DeleteMachine(ctx, sid); !errors.As(err, &le) || le.Code != lifecycle.CodeNotFound {
		t.Fatalf("second delete: %v", err)
	}
}

// Abort of an erase answers Disk erasing; the machine reads Failed disk
// erasing, powered off, right after, and a release then ends at Ready.
func TestAbortErase(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	sid := deployedMachine(t, e)
	if _, err := e.client.Release(ctx, sid, lifecycle.ReleaseSpec{Erase: lifecycle.EraseQuick}); err != nil {
		t.Fatal(err)
	}
	m, err := e.client.Abort(ctx, sid, "operator abort")
	if err != nil || m.Status != lifecycle.MaasDiskErasing {
		t.Fatalf("abort answer: %s %v", m.Status, err)
	}
	wantMachine(t, e, sid, lifecycle.MaasFailedDiskErasing, "off")
	if m, err = e.client.Release(ctx, sid, lifecycle.ReleaseSpec{}); err != nil || m.Status != lifecycle.MaasReady {
		t.Fatalf("release after abort: %s %v", m.Status, err)
	}
}

// A held answer: the client gives up and sees a retryable error, yet MAAS
// has acted. Sending the same call again is refused, which is why a
// workflow re-reads the machine before any destructive call.
func TestLostAnswerAfterMAASActed(t *testing.T) {
	cases := []struct {
		name, key string
		from      maassim.Status
		call      func(ctx context.Context, c *maas.Client, sid string) error
		after     lifecycle.MaasStatus
		again     string
	}{
		{"deploy", "deploy", maassim.StatusReady, func(ctx context.Context, c *maas.Client, sid string) error {
			_, err := c.Deploy(ctx, sid, lifecycle.DeploySpec{})
			return err
		}, lifecycle.MaasDeploying, "Can't deploy a machine that is in the 'Deploying' state"},
		{"erase", maassim.EraseOp, maassim.StatusDeployed, func(ctx context.Context, c *maas.Client, sid string) error {
			_, err := c.Release(ctx, sid, lifecycle.ReleaseSpec{Erase: lifecycle.EraseQuick})
			return err
		}, lifecycle.MaasDiskErasing, "Machine cannot be released in its current state ('Disk erasing')."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 0)
			sid, err := e.sim.AddMachine(maassim.HostSpec{}, "", c.from)
			if err != nil {
				t.Fatal(err)
			}
			e.sim.SetOpFault(c.key, maassim.OpFault{Hold: time.Minute})
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			err = c.call(ctx, e.client, sid)
			cancel()
			if !lifecycle.IsRetryable(err) {
				t.Fatalf("held call: %v, want unavailable", err)
			}
			wantMachine(t, e, sid, c.after, "")
			e.sim.SetOpFault(c.key, maassim.OpFault{})
			wantConflict(t, c.call(context.Background(), e.client, sid), c.again)
		})
	}
}
