package storetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func testPowerOverrides(t *testing.T, e *env) {
	s := e.site()
	o, err := e.st.CreatePowerOverride(e.ctx, lifecycle.PowerOverride{ID: "o1", SiteID: s.ID, SelectorType: lifecycle.SelectPXEMac,
		SelectorValue: "AA:BB:CC:DD:EE:01", VaultPath: "kv/maas-sites/" + s.ID + "/power/overrides/o1"})
	e.must(err)
	if o.SelectorValue != "aa:bb:cc:dd:ee:01" || o.Status != "active" {
		t.Fatalf("override = %+v", o)
	}
	_, err = e.st.CreatePowerOverride(e.ctx, lifecycle.PowerOverride{ID: "o2", SiteID: s.ID, SelectorType: lifecycle.SelectPXEMac,
		SelectorValue: "aa:bb:cc:dd:ee:01", VaultPath: "kv/x"})
	e.wantCode(err, lifecycle.CodeConflict)
	for field, bad := range map[string]lifecycle.PowerOverride{
		"selector_type":  {ID: "b", SiteID: s.ID, SelectorType: "serial", SelectorValue: "x", VaultPath: "kv/x"},
		"selector_value": {ID: "b", SiteID: s.ID, SelectorType: lifecycle.SelectIPMIIP, SelectorValue: "10.0.0.300", VaultPath: "kv/x"},
		"vault_path":     {ID: "b", SiteID: s.ID, SelectorType: lifecycle.SelectHostname, SelectorValue: "c07u43", VaultPath: "secret/../x"},
	} {
		if _, err := e.st.CreatePowerOverride(e.ctx, bad); lifecycle.ErrorField(err) != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	_, err = e.st.CreatePowerOverride(e.ctx, lifecycle.PowerOverride{ID: "o3", SiteID: s.ID, SelectorType: lifecycle.SelectIPMIIP,
		SelectorValue: "10.0.0.5", VaultPath: "kv/y"})
	e.must(err)
	list, err := e.st.ListPowerOverrides(e.ctx, s.ID)
	e.must(err)
	if len(list) != 2 || list[0].ID != "o3" {
		t.Fatalf("list = %+v", list)
	}
	e.must(e.st.DeletePowerOverride(e.ctx, s.ID, "o1"))
	e.wantCode(e.st.DeletePowerOverride(e.ctx, s.ID, "o1"), lifecycle.CodeNotFound)
	_, err = e.st.CreatePowerOverride(e.ctx, lifecycle.PowerOverride{ID: "o4", SiteID: s.ID, SelectorType: lifecycle.SelectPXEMac,
		SelectorValue: "aa:bb:cc:dd:ee:01", VaultPath: "kv/z"})
	e.must(err) // the selector is free again
}

func testRoCE(t *testing.T, e *env) {
	s := e.site()
	items := []lifecycle.RoCEAssignment{
		{ID: "r1", Hostname: "C07U31", Interface: "enp28s0np0", IPv4CIDR: "172.30.9.61/31"},
		{ID: "r2", Hostname: "c07u31", Interface: "enp29s0np0", IPv4CIDR: "172.29.1.219/31"},
		{ID: "r3", Hostname: "c07u32", Interface: "enp28s0np0", IPv4CIDR: "172.30.9.63/31"},
	}
	got, err := e.st.UpsertRoCEAssignments(e.ctx, s.ID, items)
	e.must(err)
	if len(got) != 3 || got[0].Hostname != "c07u31" || items[0].Hostname != "C07U31" {
		t.Fatalf("upsert = %+v (input must not be modified)", got)
	}
	e.clock.Advance(1)
	again, err := e.st.UpsertRoCEAssignments(e.ctx, s.ID, []lifecycle.RoCEAssignment{
		{ID: "r9", Hostname: "c07u31", Interface: "enp28s0np0", IPv4CIDR: "172.30.9.65/31"}})
	e.must(err)
	if again[0].ID != "r1" || again[0].IPv4CIDR != "172.30.9.65/31" || !again[0].UpdatedAt.After(again[0].CreatedAt) {
		t.Fatalf("an upsert of an existing host+interface must update it in place: %+v", again[0])
	}
	// All or none: one bad item rejects the whole request.
	_, err = e.st.UpsertRoCEAssignments(e.ctx, s.ID, []lifecycle.RoCEAssignment{
		{ID: "r5", Hostname: "c07u40", Interface: "enp1", IPv4CIDR: "172.30.0.1/31"},
		{ID: "r6", Hostname: "c07u40", Interface: "enp2", IPv4CIDR: "300.1.1.1/31"}})
	if lifecycle.ErrorField(err) != "ipv4_cidr" {
		t.Fatalf("bad CIDR: %v", err)
	}
	_, err = e.st.UpsertRoCEAssignments(e.ctx, s.ID, []lifecycle.RoCEAssignment{
		{ID: "r7", Hostname: "c07u41", Interface: "enp1", IPv4CIDR: "172.30.0.1/31"},
		{ID: "r8", Hostname: "c07u41", Interface: "enp1", IPv4CIDR: "172.30.0.3/31"}})
	e.wantCode(err, lifecycle.CodeInvalid)
	host, err := e.st.ListRoCEAssignments(e.ctx, s.ID, "C07U31")
	e.must(err)
	all, err := e.st.ListRoCEAssignments(e.ctx, s.ID, "")
	e.must(err)
	if len(host) != 2 || len(all) != 3 {
		t.Fatalf("host=%d all=%d (rejected items must not be stored)", len(host), len(all))
	}
	e.must(e.st.DeleteRoCEAssignment(e.ctx, s.ID, "r2"))
	e.wantCode(e.st.DeleteRoCEAssignment(e.ctx, "other-site", "r1"), lifecycle.CodeNotFound)
}

func testSubmit(t *testing.T, e *env) {
	s := e.site()
	mk := func(id string) lifecycle.Run {
		return lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, SiteID: s.ID, Hostname: id, Status: lifecycle.JobPending}
	}
	sub := lifecycle.Submission{IdempotencyKey: "k1", RequestHash: "h1",
		Batch: &lifecycle.Batch{ID: "b1", SiteID: s.ID, Kind: lifecycle.RunOnboarding}, Runs: []lifecycle.Run{mk("a"), mk("b")}}
	res, err := e.st.Submit(e.ctx, sub)
	e.must(err)
	if res.BatchID != "b1" || res.Replayed || len(res.RunIDs) != 2 {
		t.Fatalf("submit = %+v", res)
	}
	replay := sub
	replay.Batch = &lifecycle.Batch{ID: "b2", SiteID: s.ID, Kind: lifecycle.RunOnboarding}
	replay.Runs = []lifecycle.Run{mk("c"), mk("d")}
	again, err := e.st.Submit(e.ctx, replay)
	e.must(err)
	if !again.Replayed || again.BatchID != "b1" || !cmp.Equal(again.RunIDs, res.RunIDs) {
		t.Fatalf("a repeated key must return the first result: %+v", again)
	}
	replay.RequestHash = "h2"
	_, err = e.st.Submit(e.ctx, replay)
	e.wantCode(err, lifecycle.CodeConflict)
	runs, err := e.st.ListRuns(e.ctx, lifecycle.RunFilter{SiteID: s.ID})
	e.must(err)
	b, err := e.st.GetBatch(e.ctx, "b1")
	e.must(err)
	if len(runs) != 2 || runs[0].BatchID != "b1" || !cmp.Equal(b.RunIDs, []string{"a", "b"}) {
		t.Fatalf("runs=%+v batch=%+v", runs, b)
	}
	_, err = e.st.Submit(e.ctx, lifecycle.Submission{Runs: []lifecycle.Run{mk("a")}})
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.GetBatch(e.ctx, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)
}
