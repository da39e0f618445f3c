package maassim_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func TestIPChangeOutOfBand(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", nil)
	st.advance(time.Hour)
	before := fmt.Sprint(st.machine(t, sid)["ip_addresses"])
	if err := st.sim.ChangeIPOutOfBand(context.Background(), sid); err != nil {
		t.Fatal(err)
	}
	if after := fmt.Sprint(st.machine(t, sid)["ip_addresses"]); after == before || after == "[]" {
		t.Fatalf("ip_addresses %s -> %s", before, after)
	}
}

func TestDeadAndSlowBMC(t *testing.T) {
	ctx := context.Background()
	t.Run("dead BMC: query 503, commissioning fails after MAAS's timeout", func(t *testing.T) {
		st := newSite(t, 0)
		sid, _ := st.sim.AddMachine(maassim.HostSpec{PowerAddress: "10.9.9.9"}, "h", maassim.StatusReady)
		st.sim.SetBMC("10.9.9.9", 0, true)
		if r := st.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/?op=query_power_state", nil); r.code != 503 {
			t.Fatalf("%d %s", r.code, r.body)
		}
		mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=commission", nil)
		if ps := st.machine(t, sid)["power_state"]; ps != "error" {
			t.Fatalf("power_state %v", ps)
		}
		st.advance(30 * time.Second) // 50 min unscaled, past the 20 min timeout
		wantStatus(t, st, sid, "Failed commissioning")
	})
	t.Run("slow BMC delays only its own query", func(t *testing.T) {
		st := newSite(t, 0)
		sid, _ := st.sim.AddMachine(maassim.HostSpec{PowerAddress: "10.9.9.8"}, "h", maassim.StatusReady)
		st.sim.SetBMC("10.9.9.8", 80*time.Millisecond, false)
		start := time.Now()
		r := st.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/?op=query_power_state", nil)
		if r.code != 200 || r.body != `{"state":"off"}` || time.Since(start) < 80*time.Millisecond {
			t.Fatalf("%d %s after %v", r.code, r.body, time.Since(start))
		}
	})
	t.Run("stuck-on BMC: power_off answered, power never reads off", func(t *testing.T) {
		st := newSite(t, 0)
		sid, _ := st.sim.AddMachine(maassim.HostSpec{PowerAddress: "10.9.9.7"}, "h", maassim.StatusReady)
		if err := st.sim.AddHost(maassim.HostSpec{PowerAddress: "10.9.9.7"}).SetPower(ctx, true); err != nil {
			t.Fatal(err)
		}
		if !st.sim.SetBMCStuckOn("10.9.9.7", true) {
			t.Fatal("no MemBMC at 10.9.9.7")
		}
		mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=power_off", nil)
		st.advance(time.Minute)
		if r := st.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/?op=query_power_state", nil); r.code != 200 || r.body != `{"state":"on"}` {
			t.Fatalf("query after power_off on a stuck BMC: %d %s", r.code, r.body)
		}
		st.sim.SetBMCStuckOn("10.9.9.7", false)
		mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=power_off", nil)
		st.advance(time.Minute)
		if r := st.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/?op=query_power_state", nil); r.body != `{"state":"off"}` {
			t.Fatalf("query after power_off once unstuck: %d %s", r.code, r.body)
		}
	})
	_ = ctx
}

func TestPXEDiscoveryEnlistsNew(t *testing.T) {
	st := newSite(t, 0)
	bmc := st.sim.AddHost(maassim.HostSpec{PowerAddress: "10.7.0.1", PXEMAC: "aa:bb:cc:00:00:01"})
	ctx := context.Background()
	_ = bmc.SetPower(ctx, true) // powered on, boots from disk: never enlists
	st.advance(time.Hour)
	if n := len(st.ids(t)); n != 0 {
		t.Fatalf("%d machines before PXE boot", n)
	}
	_ = bmc.SetBootDevice(ctx, maassim.BootPXE)
	st.advance(time.Second) // first seen PXE-booting
	if n := len(st.ids(t)); n != 0 {
		t.Fatal("enlisted without the discovery delay")
	}
	st.advance(2 * time.Second) // 3 min unscaled
	r := st.call(t, "GET", "/MAAS/api/2.0/machines/", url.Values{"mac_address": {"AA:BB:CC:00:00:01"}})
	if r.code != 200 || len(st.ids(t)) != 1 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	wantStatus(t, st, st.ids(t)[0], "New")
}

func TestHardwareSyncAdvancesOnlyOnSignedSignals(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	boots := make(chan maassim.Boot, 1)
	st.sim.OnBoot(func(b maassim.Boot) { boots <- b })
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy",
		url.Values{"enable_hw_sync": {"true"}, "user_data": {"I2Nsb3VkLWNvbmZpZwo="}})
	st.advance(time.Hour)
	b := <-boots
	if string(b.UserData) != "#cloud-config\n" || b.TokenSecret == "" {
		t.Fatalf("boot %+v", b.UserData)
	}
	m := st.machine(t, sid)
	first := m["last_sync"]
	if first == nil || m["sync_interval"].(float64) != 900 || m["next_sync"] == nil {
		t.Fatalf("hw sync fields %v %v %v", first, m["sync_interval"], m["next_sync"])
	}
	st.clock.Advance(10 * time.Minute)
	if got := st.machine(t, sid)["last_sync"]; got != first {
		t.Fatal("last_sync moved without a signal")
	}
	sig := url.Values{"op": {"signal"}, "status": {"OK"}}
	creds := b.ConsumerKey + ":" + b.TokenKey + ":" + b.TokenSecret
	bad := b.ConsumerKey + ":" + b.TokenKey + ":wrong"
	if r := st.send(t, "POST", "/MAAS/metadata/2012-03-01/", sig, oauth(bad, st.clock.Now().Unix(), "sig-bad")); r.code != 401 {
		t.Fatalf("bad machine creds: %d %s", r.code, r.body)
	}
	if got := st.machine(t, sid)["last_sync"]; got != first {
		t.Fatal("last_sync moved on a bad signature")
	}
	if r := st.send(t, "POST", "/MAAS/metadata/2012-03-01/", sig, oauth(creds, st.clock.Now().Unix(), "sig-ok")); r.code != 200 {
		t.Fatalf("signal: %d %s", r.code, r.body)
	}
	if got := st.machine(t, sid)["last_sync"]; got == first {
		t.Fatal("last_sync did not advance on a valid signal")
	}
	if r := st.send(t, "GET", "/MAAS/api/2.0/machines/", nil, oauth(creds, st.clock.Now().Unix(), "rest")); r.code != 403 {
		t.Fatalf("machine token on REST: %d", r.code)
	}
}
