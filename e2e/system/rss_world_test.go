//go:build e2e

package system

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// submitQueued posts rssQueued onboardings to the admin API in batches of
// 1,000 (its limit): the simulator's machines first, then hosts MAAS does
// not know, which stay queued behind them. It returns the slowest
// batch's answer time.
func (w *world) submitQueued() time.Duration {
	var slowest time.Duration
	w.t.Helper()
	hosts := make([]string, 0, len(w.sim.machines))
	for h := range w.sim.machines {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for batch := 0; batch < rssQueued/1000; batch++ {
		nodes := make([]map[string]string, 1000)
		for i := range nodes {
			n := batch*1000 + i
			if n < len(hosts) {
				nodes[i] = map[string]string{"hostname": hosts[n], "ipmi_ip": w.sim.machines[hosts[n]].bmc}
				continue
			}
			nodes[i] = map[string]string{"hostname": fmt.Sprintf("queued-%05d", n), "ipmi_ip": fmt.Sprintf("10.%d.%d.%d", 200+n/65536, n/256%256, n%256)}
		}
		body := map[string]any{"site_id": w.site, "profile_id": "default", "sku_id": "h100.80g.8gpu", "nodes": nodes}
		sent := time.Now()
		code, out := w.daemon.admin(http.MethodPost, "/api/v1/admin/onboardings/batch", body, fmt.Sprintf("rss-bench-%d", batch))
		if code != http.StatusCreated && code != http.StatusAccepted {
			w.t.Fatalf("batch %d: %d %.500s", batch, code, out)
		}
		slowest = max(slowest, time.Since(sent))
	}
	return slowest
}

// runCounts are the site's runs by status, and the running ones by stage.
type runCounts struct {
	status, stages map[string]int
}

// waitActive waits until rssActive runs are running past
// create_or_find_in_maas (each has found its machine in MAAS) and the
// rest are pending, failing on any other status or at the deadline.
func (w *world) waitActive(timeout time.Duration) runCounts {
	w.t.Helper()
	early := map[string]bool{"": true, "load_site_config": true, "resolve_power_credentials": true, "create_or_find_in_maas": true}
	deadline := time.Now().Add(timeout)
	for {
		c := runCounts{status: map[string]int{}, stages: map[string]int{}}
		past := 0
		for _, r := range w.listRuns() {
			c.status[r.Status]++
			if r.Status == "running" {
				c.stages[r.Stage]++
				if !early[r.Stage] {
					past++
				}
			}
		}
		// A run may complete meanwhile (the simulator runs at MAAS's
		// pace, not stopped); one pending run then takes its place.
		done := c.status["completed"]
		total := c.status["running"] + c.status["pending"] + done
		if total != rssQueued || len(c.status) > 3 {
			w.t.Fatalf("want %d runs running, pending or completed, have %v", rssQueued, c.status)
		}
		if past == rssActive && c.status["pending"] == rssQueued-rssActive-done {
			return c
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("after %v: runs %v, running ones by stage %v", timeout, c.status, c.stages)
		}
		time.Sleep(2 * time.Second)
	}
}

// listRuns lists the site's onboardings through the admin API, following
// next_cursor over pages of 1,000.
func (w *world) listRuns() []runView {
	w.t.Helper()
	var all []runView
	for cursor := ""; ; {
		q := url.Values{"site_id": {w.site}, "limit": {"1000"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		code, out := w.daemon.admin(http.MethodGet, "/api/v1/admin/onboardings?"+q.Encode(), nil, "")
		var page struct {
			Onboardings []runView
			Next        string `json:"next_cursor"`
		}
		if err := json.Unmarshal(out, &page); code != http.StatusOK || err != nil {
			w.t.Fatalf("list onboardings: %d %v %.300s", code, err, out)
		}
		all = append(all, page.Onboardings...)
		if cursor = page.Next; cursor == "" {
			return all
		}
	}
}

// logHeap fetches the daemon's heap profile from /debug/pprof/heap with
// the admin token and logs its top in-use allocations (go tool pprof).
func (w *world) logHeap() {
	w.t.Helper()
	code, body := w.daemon.admin(http.MethodGet, "/debug/pprof/heap", nil, "")
	if code != http.StatusOK || !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		w.t.Fatalf("GET /debug/pprof/heap: %d, %d bytes (want a gzip-compressed profile)", code, len(body))
	}
	path := keepHeap(w.t, body)
	out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=20", "-sample_index=inuse_space", path).CombinedOutput()
	if err != nil {
		w.t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	w.t.Logf("daemon heap profile %s, top in-use:\n%s", path, out)
}

// admin sends one request to the admin listener with the bootstrap admin
// token (an Idempotency-Key when key is set) and returns status and body.
func (d *daemon) admin(method, path string, body any, key string) (int, []byte) {
	d.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			d.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, d.url(path), rd)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+d.token())
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		d.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		d.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// procStatusMB reads a kB line (VmRSS, VmHWM) of /proc/<pid>/status, in
// MB (10^6 bytes).
func procStatusMB(t testing.TB, pid int, key string) float64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for s := bufio.NewScanner(f); s.Scan(); {
		if v, ok := strings.CutPrefix(s.Text(), key+":"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("/proc/%d/status %s: %v", pid, key, err)
			}
			return float64(kb) * 1024 / 1e6
		}
	}
	t.Fatalf("no %s in /proc/%d/status", key, pid)
	return 0
}
