package maas_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

func TestPowerAddressesHidesCredentials(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	a, err := e.client.CreateMachine(ctx, maas.NewMachine{Hostname: "c07u43", Power: maas.IPMIPower{Address: "10.176.16.128", User: "root", Password: "bmc-pass-77"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.client.CreateMachine(ctx, maas.NewMachine{Hostname: "c07u44", Power: maas.IPMIPower{Address: "10.176.16.129", User: "root", Password: "bmc-pass-77"}})
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
