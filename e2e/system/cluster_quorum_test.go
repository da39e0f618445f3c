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
// 503 and a problem+json body saying the store has no quorum, well within
// the admin listener's 30 s write timeout; reads are answered (200) from
// the survivor's read replica, marked stale, and the CLI warns about it;
// /healthz answers 200 and /readyz 503 (no write would succeed). When one
// peer is restarted on its state dir, quorum is back: the write succeeds,
// and the site and the onboarding runs written before the loss are all
// there.
func TestClusterQuorumLoss(t *testing.T) {
	c := newCluster(t, simOptions{machines: 2, speed: 600})
	batch, _ := c.onboard(hostnames(1, 2)...)
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 || !strings.Contains(w.stdout, "completed 2") {
		t.Fatalf("onboarding watch --batch: %s", w)
	}
	const survivor = 2
	s := c.members[survivor]
	time.Sleep(12 * time.Second) // a replica rebuild (every 10 s) after the batch
	for i := range survivor {
		c.proxy.setDown(i, true)
		c.members[i].proc.kill()
	}

	// The store gives up after its 10 s timeout, COMMIT included.
	lost := time.Now()
	code, h, body := s.request(t, http.MethodPost, "/api/v1/admin/maas-sites", siteBody("dc2"))
	took := time.Since(lost)
	t.Logf("write without quorum after %v: %d %s %s", took.Round(time.Millisecond), code, h.Get("Content-Type"), body)
	if code != http.StatusServiceUnavailable || h.Get("Content-Type") != "application/problem+json" || took > 15*time.Second {
		t.Errorf("create site without quorum: %d %s %s after %v, want 503 problem+json within 15 s", code, h.Get("Content-Type"), body, took)
	}
	var problem struct{ Title, Detail string }
	if err := json.Unmarshal(body, &problem); err != nil || problem.Title == "" || !strings.Contains(problem.Detail, "the store has no quorum") {
		t.Errorf("problem body %s: %v; want a detail saying the store has no quorum", body, err)
	}
	if code, _, body := s.call(t, http.MethodGet, "/healthz", nil); code != http.StatusOK {
		t.Errorf("/healthz without quorum: %d %s", code, body)
	}
	if code, _, body := s.call(t, http.MethodGet, "/readyz", nil); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz without quorum: %d %s, want 503", code, body)
	}

	// Reads are answered throughout: by a leader that has not stepped
	// down yet, then from the replica, marked stale.
	var sites struct{ Sites []struct{ Name string } }
	deadline := time.Now().Add(20 * time.Second)
	for {
		start := time.Now()
		code, h, body = s.request(t, http.MethodGet, "/api/v1/admin/maas-sites", nil)
		t.Logf("read without quorum after %v: %d Warning=%q Age=%q %s", time.Since(start).Round(time.Millisecond), code, h.Get("Warning"), h.Get("Age"), body)
		if code != http.StatusOK || json.Unmarshal(body, &sites) != nil || len(sites.Sites) != 1 {
			t.Fatalf("list sites without quorum: %d %s, want 200 and dc1", code, body)
		}
		if h.Get("Warning") != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no read was answered from the replica (no Warning header)")
		}
		time.Sleep(time.Second)
	}
	if !strings.HasPrefix(h.Get("Warning"), "110 ") || h.Get("Age") == "" || h.Get("X-Store-Snapshot-Taken") == "" {
		t.Errorf("stale answer headers %v, want Warning 110, Age and X-Store-Snapshot-Taken", h)
	}
	if r := s.cli("", "site", "list"); r.code != 0 || !strings.Contains(r.stderr, "no quorum") || !strings.Contains(r.stdout, "dc1") {
		t.Errorf("site list without quorum: %s; want dc1 and a warning on stderr", r)
	}
	c.daemon = s
	if n := len(c.runs(batch)); n != 2 {
		t.Errorf("%d runs read without quorum, want 2", n)
	}

	back := c.members[0]
	c.proxy.setDown(0, false)
	back.start()
	deadline = time.Now().Add(30 * time.Second)
	for {
		code, _, body = s.call(t, http.MethodPost, "/api/v1/admin/maas-sites", siteBody("dc2"))
		// 409: the refused write's COMMIT, cut short by the deadline,
		// was applied after all once the quorum came back.
		if code == http.StatusCreated || code == http.StatusConflict {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("create site after %s returned: %d %s", c.names[0], code, body)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("write answered %d %v after %s was restarted", code, time.Since(lost).Round(time.Millisecond), c.names[0])
	code, h, body = s.request(t, http.MethodGet, "/api/v1/admin/maas-sites", nil)
	if code != http.StatusOK || json.Unmarshal(body, &sites) != nil {
		t.Fatalf("list sites after quorum came back: %d %s", code, body)
	}
	if len(sites.Sites) != 2 || h.Get("Warning") != "" {
		t.Errorf("sites after quorum came back: %+v (Warning %q), want dc1 and dc2, fresh", sites.Sites, h.Get("Warning"))
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
	code, h, out := d.request(t, method, path, body)
	return code, h.Get("Content-Type"), out
}

// request is call returning every header of the answer.
func (d *daemon) request(t *testing.T, method, path string, body any) (int, http.Header, []byte) {
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
	return resp.StatusCode, resp.Header, out
}
