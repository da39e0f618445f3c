//go:build e2e && dqlite

package system

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestClusterQuorumLoss: two of the three members are killed. The
// survivor has no Raft quorum: a write (creating a site) is refused with
// 503 and a problem+json body, /healthz still answers 200, and reads go
// to the Raft leader too, so they are refused the same way (a known gap:
// the issue wants reads served). When one peer is restarted on its state
// dir, quorum is back: the write succeeds, and the site and the
// onboarding runs written before the loss are all there.
func TestClusterQuorumLoss(t *testing.T) {
	c := newCluster(t, simOptions{machines: 2, speed: 600})
	batch, _ := c.onboard(hostnames(1, 2)...)
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 || !strings.Contains(w.stdout, "completed 2") {
		t.Fatalf("onboarding watch --batch: %s", w)
	}
	const survivor = 2
	for i := range survivor {
		c.proxy.setDown(i, true)
		c.members[i].proc.kill()
	}
	s := c.members[survivor]

	// dqlite gives up on the lost leader within seconds; the write may
	// hang until then, never succeed.
	lost := time.Now()
	code, ctype, body := s.call(t, http.MethodPost, "/api/v1/admin/maas-sites", siteBody("dc2"))
	t.Logf("write without quorum after %v: %d %s %s", time.Since(lost).Round(time.Millisecond), code, ctype, body)
	if code != http.StatusServiceUnavailable || ctype != "application/problem+json" {
		t.Errorf("create site without quorum: %d %s %s, want 503 problem+json", code, ctype, body)
	}
	var problem struct{ Title, Detail string }
	if err := json.Unmarshal(body, &problem); err != nil || problem.Title == "" {
		t.Errorf("problem body %s: %v", body, err)
	}
	if code, _, body := s.call(t, http.MethodGet, "/healthz", nil); code != http.StatusOK {
		t.Errorf("/healthz without quorum: %d %s", code, body)
	}
	code, ctype, body = s.call(t, http.MethodGet, "/api/v1/admin/maas-sites", nil)
	t.Logf("read without quorum: %d %s %s", code, ctype, body)
	if code != http.StatusServiceUnavailable || ctype != "application/problem+json" {
		t.Errorf("list sites without quorum: %d %s %s, want 503 problem+json (reads go to the leader)", code, ctype, body)
	}

	back := c.members[0]
	c.proxy.setDown(0, false)
	back.start()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, _, body = s.call(t, http.MethodPost, "/api/v1/admin/maas-sites", siteBody("dc2"))
		if code == http.StatusCreated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("create site after %s returned: %d %s", c.names[0], code, body)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("write accepted %v after %s was restarted", time.Since(lost).Round(time.Millisecond), c.names[0])
	c.daemon = s
	var sites struct{ Sites []struct{ Name string } }
	if code, _, body := s.call(t, http.MethodGet, "/api/v1/admin/maas-sites", nil); code != http.StatusOK || json.Unmarshal(body, &sites) != nil {
		t.Fatalf("list sites after quorum came back: %d %s", code, body)
	}
	if len(sites.Sites) != 2 {
		t.Errorf("sites after quorum came back: %+v, want dc1 and dc2", sites.Sites)
	}
	for h, r := range c.runs(batch) {
		if r.Status != "completed" {
			t.Errorf("%s: run %s after quorum came back, want completed", h, r.Status)
		}
	}
	if n := len(c.runs(batch)); n != 2 {
		t.Errorf("%d runs after quorum came back, want 2", n)
	}
}

func siteBody(name string) map[string]any {
	return map[string]any{"name": name, "region_code": name, "api_base_url": "http://127.0.0.1:1/MAAS",
		"pxe_iface": "ens19", "pxe_vlan_vid": 46, "node_pxe_iface": "eno8303"}
}

// call sends an admin API request with the daemon's token and returns the
// status, the Content-Type and the body.
func (d *daemon) call(t *testing.T, method, path string, body any) (int, string, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, d.url(path), rd)
	req.Header.Set("Authorization", "Bearer "+d.token())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Audit-Reason", "cluster test")
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), out
}
