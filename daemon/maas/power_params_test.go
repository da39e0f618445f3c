package maas_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestPowerAddressesHidesCredentials(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	a, err := e.client.CreateMachine(ctx, "c07u43", lifecycle.BMCLogin{Address: "10.176.16.128", User: "root", Pass: "bmc-pass-77"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.client.CreateMachine(ctx, "c07u44", lifecycle.BMCLogin{Address: "10.176.16.129", User: "root", Pass: "bmc-pass-77"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := e.client.PowerAddresses(ctx)
	if err != nil || all[a.SystemID] != "10.176.16.128" || all[b.SystemID] != "10.176.16.129" {
		t.Fatalf("all = %v, %v", all, err)
	}
	one, err := e.client.PowerAddresses(ctx, b.SystemID)
	if err != nil || len(one) != 1 || one[b.SystemID] != "10.176.16.129" {
		t.Fatalf("one = %v, %v", one, err)
	}
	if strings.Contains(e.logs.String(), "bmc-pass-77") {
		t.Fatal("a BMC password reached the client's log")
	}
}
