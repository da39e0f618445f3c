package maas_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func TestErrorMapping(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	sid, _ := e.sim.AddMachine(maassim.HostSpec{}, "new-1", maassim.StatusNew)
	ready := func() string {
		ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{Hostnames: nil})
		return ms[0].SystemID
	}()
	closed := closedURL(t)
	cases := []struct {
		name      string
		call      func() error
		code      lifecycle.Code
		field     string
		msg       string
		retryable bool
	}{
		{"409 carries MAAS's text", func() error { _, err := e.client.Deploy(ctx, sid, lifecycle.DeploySpec{}); return err },
			lifecycle.CodeConflict, "", "Can't deploy a machine that is in the 'New' state", false},
		{"409 release New", func() error { _, err := e.client.Release(ctx, sid, lifecycle.ReleaseSpec{}); return err },
			lifecycle.CodeConflict, "", "Machine cannot be released in its current state ('New').", false},
		{"409 abort Ready", func() error { _, err := e.client.Abort(ctx, ready, "x"); return err },
			lifecycle.CodeConflict, "", "Cannot abort in current state", false},
		{"409 mark_fixed Ready", func() error { _, err := e.client.MarkFixed(ctx, ready, ""); return err },
			lifecycle.CodeConflict, "", "Can't mark a non-broken node as 'Ready'.", false},
		{"400 field map", func() error {
			_, err := e.client.Machines(ctx, lifecycle.MachineFilter{MACAddresses: []string{"zz"}})
			return err
		}, lifecycle.CodeInvalid, "mac_address", "mac_address: 'zz' is not a valid MAC address.", false},
		{"400 unknown series", func() error {
			_, err := e.client.Deploy(ctx, ready, lifecycle.DeploySpec{DistroSeries: "gpuaas-nope"})
			return err
		}, lifecycle.CodeInvalid, "distro_series", "'custom/gpuaas-nope' is not a valid distro_series", false},
		{"401 bad key", func() error { _, err := e.newClient(t, "wrong-ck:wrong-tk:wrong-ts").WhoAmI(ctx); return err },
			lifecycle.CodeUnauthorized, "", "Invalid API key", false},
		{"403 machine token", func() error { return machineTokenCall(t, e, ctx) },
			lifecycle.CodeForbidden, "", "Machine tokens", false},
		{"404", func() error { _, err := e.client.Machine(ctx, "nope00"); return err },
			lifecycle.CodeNotFound, "", "No Machine matches the given query.", false},
		{"503", func() error {
			e.sim.SetOpFault("power_on", maassim.OpFault{ErrorRate: 1})
			defer e.sim.SetOpFault("power_on", maassim.OpFault{})
			_, err := e.client.PowerOn(ctx, ready)
			return err
		}, lifecycle.CodeUnavailable, "", "MAAS 503", true},
		{"timeout from context", func() error {
			e.sim.SetOpFault("GET machine", maassim.OpFault{Timeout: true})
			defer e.sim.SetOpFault("GET machine", maassim.OpFault{})
			tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			_, err := e.client.Machine(tctx, ready)
			return err
		}, lifecycle.CodeUnavailable, "", "MAAS unreachable", true},
		{"connection refused", func() error {
			c, _ := maas.New(maas.Config{BaseURL: closed, APIKey: apiKey, RetryBackoff: time.Millisecond})
			_, err := c.Version(ctx)
			return err
		}, lifecycle.CodeUnavailable, "", "MAAS unreachable", true},
		{"empty system id", func() error { _, err := e.client.Deploy(ctx, "", lifecycle.DeploySpec{}); return err },
			lifecycle.CodeInvalid, "system_id", "must not be empty", false},
		{"bad link mode", func() error {
			_, err := e.client.Link(ctx, ready, 1, "bogus", 0, "")
			return err
		},
			lifecycle.CodeInvalid, "mode", "must be auto, dhcp, static or link_up", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			var le *lifecycle.Error
			if !errors.As(err, &le) {
				t.Fatalf("not a lifecycle.Error: %v", err)
			}
			if le.Code != c.code || le.Field != c.field || !strings.Contains(err.Error(), c.msg) || lifecycle.IsRetryable(err) != c.retryable {
				t.Fatalf("got code=%s field=%q retryable=%v %q", le.Code, le.Field, lifecycle.IsRetryable(err), err)
			}
		})
	}
}

func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/MAAS/"
}

// machineTokenCall uses a deployed machine's own token on the REST API.
func machineTokenCall(t *testing.T, e *env, ctx context.Context) error {
	ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if _, err := e.client.Deploy(ctx, ms[0].SystemID, lifecycle.DeploySpec{}); err != nil {
		t.Fatal(err)
	}
	tok, err := e.client.MachineToken(ctx, ms[0].SystemID)
	if err != nil || tok == nil {
		t.Fatalf("token %v", err)
	}
	_, err = e.newClient(t, tok.ConsumerKey+":"+tok.TokenKey+":"+tok.TokenSecret.Reveal()).Machines(ctx, lifecycle.MachineFilter{})
	return err
}

func TestOnlyReadsAreRetried(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{})
	sid := ms[0].SystemID
	e.sim.SetOpFault("*", maassim.OpFault{ErrorRate: 1})
	cases := []struct {
		name string
		call func() error
		want int64
	}{
		{"GET retried twice", func() error { _, err := e.client.Machine(ctx, sid); return err }, 3},
		{"POST not retried", func() error { _, err := e.client.Commission(ctx, sid); return err }, 1},
		{"PUT not retried", func() error {
			_, err := e.client.SetIdentity(ctx, sid, "x", lifecycle.BMCLogin{})
			return err
		}, 1},
		{"DELETE not retried", func() error { return e.client.DeleteMachine(ctx, sid) }, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := e.requests.Load()
			if err := c.call(); !lifecycle.IsRetryable(err) {
				t.Fatalf("want unavailable, got %v", err)
			}
			if n := e.requests.Load() - before; n != c.want {
				t.Fatalf("%d requests, want %d", n, c.want)
			}
		})
	}
}
