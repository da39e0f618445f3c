package maassim_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canonical/gomaasclient/client"
	"github.com/canonical/gomaasclient/entity"
	"github.com/juju/gomaasapi/v2"
)

// TestGomaasclientAllocateThenDeploy is terraform-provider-maas's path
// through Canonical's gomaasclient (test-only): allocate a Ready machine by
// system_id, then deploy it.
func TestGomaasclientAllocateThenDeploy(t *testing.T) {
	st := newSite(t, 3)
	c, err := client.GetClient(st.srv.URL+"/MAAS/", testKey, "2.0")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := c.Machines.Get(&entity.MachinesParams{})
	if err != nil || len(ms) != 3 {
		t.Fatalf("Machines.Get: %d %v", len(ms), err)
	}
	sid := ms[1].SystemID
	dry, err := c.Machines.Allocate(&entity.MachineAllocateParams{SystemID: sid, DryRun: true})
	if err != nil || dry.SystemID != sid || dry.StatusName != "Ready" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	got, err := c.Machines.Allocate(&entity.MachineAllocateParams{SystemID: sid,
		AgentName: "terraform", Comment: "tf apply", Arch: "amd64", CPUCount: 1, Mem: 1024,
		Zone: "default", Pool: "default"})
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	if got.SystemID != sid || got.StatusName != "Allocated" || got.Owner != "admin" {
		t.Fatalf("allocated: %s %s owner=%q", got.SystemID, got.StatusName, got.Owner)
	}
	dep, err := c.Machine.Deploy(sid, &entity.MachineDeployParams{DistroSeries: "jammy"})
	if err != nil || dep.StatusName != "Deploying" {
		t.Fatalf("Deploy: %+v %v", dep, err)
	}
	// The machine is no longer available: asking for it again is a 409.
	_, err = c.Machines.Allocate(&entity.MachineAllocateParams{SystemID: sid})
	wantServerError(t, err, http.StatusConflict, "No available machine matches constraints: "+
		"[('system_id', ['"+sid+"'])] (resolved to \"system_id="+sid+"\")")
	// A machine's own token is refused by every user call, allocate too.
	tok, err := c.Machine.GetToken(sid)
	if err != nil {
		t.Fatalf("GetToken: %v", err)
	}
	mc, err := client.GetClient(st.srv.URL+"/MAAS/", tok.ConsumerKey+":"+tok.TokenKey+":"+tok.TokenSecret, "2.0")
	if err != nil {
		t.Fatal(err)
	}
	_, err = mc.Machines.Allocate(&entity.MachineAllocateParams{})
	wantServerError(t, err, http.StatusForbidden, "Machine tokens cannot use the REST API.")
	// The client signs with the wall clock; the simulator's is fake, so the
	// end of the deployment is read with the site's own signing.
	st.advance(time.Hour)
	if got := st.statusName(t, sid); got != "Deployed" {
		t.Fatalf("after deploy: %s", got)
	}
}

// TestGomaasclientAllocateRefusals shows MAAS's refusals as the client
// surfaces them.
func TestGomaasclientAllocateRefusals(t *testing.T) {
	st := newSite(t, 1)
	c, err := client.GetClient(st.srv.URL+"/MAAS/", testKey, "2.0")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Machines.Allocate(&entity.MachineAllocateParams{CPUCount: 4096})
	wantServerError(t, err, http.StatusConflict, "No available machine matches constraints: "+
		"[('cpu_count', ['4096'])] (resolved to \"cpu_count=4096.0\")")
	_, err = c.Machines.Allocate(&entity.MachineAllocateParams{Tags: []string{"gpu"}})
	wantServerError(t, err, http.StatusBadRequest, `{"tags":["No such tag(s): 'gpu'."]}`+"\n")
	_, err = c.Machines.Allocate(&entity.MachineAllocateParams{Zone: "nowhere"})
	wantServerError(t, err, http.StatusBadRequest, `{"zone":["No such zone(s): nowhere."]}`+"\n")
	for form, want := range map[string]string{
		"foo=bar":       `{"foo":["No such constraint."]}`,
		"cpu_count=two": `{"cpu_count":["Invalid CPU count: number required."]}`,
		"mem=lots":      `{"mem":["Invalid memory: number of MiB required."]}`,
		"pool=gold":     `{"pool":["No such pool(s): gold."]}`,
	} {
		q, _ := url.ParseQuery(form)
		q.Set("op", "allocate")
		r := st.call(t, "POST", "/MAAS/api/2.0/machines/", q)
		if r.code != http.StatusBadRequest || strings.TrimSpace(r.body) != want {
			t.Fatalf("%s: %d %s", form, r.code, r.body)
		}
	}
	if _, err := c.Machines.Allocate(&entity.MachineAllocateParams{}); err != nil {
		t.Fatalf("allocate without constraints: %v", err)
	}
	_, err = c.Machines.Allocate(&entity.MachineAllocateParams{})
	wantServerError(t, err, http.StatusConflict, "No machine available.")
}

func wantServerError(t *testing.T, err error, code int, body string) {
	t.Helper()
	var se gomaasapi.ServerError
	if !errors.As(err, &se) || se.StatusCode != code || se.BodyMessage != body {
		t.Fatalf("want %d %q, got %v", code, body, err)
	}
}
