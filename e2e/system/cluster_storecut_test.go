//go:build e2e && dqlite

package system

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// storeTimeout is the bound docs/operations.md promises for a store call
// of a member without quorum (dqlite.DefaultTimeout).
const storeTimeout = 10 * time.Second

// TestClusterStoreCutMemberAnswersAgents: one member, the site's lease
// holder, is cut off from the store (its store port and its dials to the
// others silently drop everything; MAAS, Vault and its agent listener
// stay reachable). It logs its first failed renewal within the lease TTL
// and the lease moves to another member. Agent
// requests sent to it at once are each answered 503 with Retry-After
// within the store's timeout, /readyz then answers 503 at once, and a
// batch onboarded through another member completes while the booted
// agents, behind a plain round-robin balancer over all three members,
// meet the cut member and move on. Reconnected, the member is ready
// again.
func TestClusterStoreCutMemberAnswersAgents(t *testing.T) {
	c, cut := newCutCluster(t, simOptions{machines: 6, speed: 600})
	x, name := c.members[cut.member], c.names[cut.member]
	c.daemon.ok("", "site", "update", c.site, "--preferred-daemon", name, "--reason", "e2e: the cut member holds the site")
	held := c.waitLease(0, 30*time.Second, func(l leaseView) bool { return l.Holder == name })
	renewal := []string{"lease renewal failed"}
	before := x.proc.countLines(renewal...)
	cut.setCut(true)
	cutAt := time.Now()
	logged := make(chan time.Duration, 1)
	go func() {
		for time.Since(cutAt) < time.Minute && x.proc.countLines(renewal...) == before {
			time.Sleep(20 * time.Millisecond)
		}
		logged <- time.Since(cutAt)
	}()

	probes := enrollProbes(t, x, 8)
	for i, p := range probes {
		t.Logf("enroll %d on the cut member: %d Retry-After %q after %s: %s", i, p.status, p.retryAfter, p.took.Round(time.Millisecond), p.detail)
		if p.status != http.StatusServiceUnavailable || p.retryAfter == "" || p.took > storeTimeout+2*time.Second {
			t.Errorf("enroll %d on the cut member: %d Retry-After %q after %s, want 503 with Retry-After within %s",
				i, p.status, p.retryAfter, p.took, storeTimeout)
		}
	}
	start := time.Now()
	code, _, body := x.call(t, http.MethodGet, "/readyz", nil)
	took := time.Since(start)
	t.Logf("/readyz on the cut member: %d after %s: %s", code, took.Round(time.Millisecond), body)
	if code != http.StatusServiceUnavailable || took > time.Second {
		t.Errorf("/readyz on the cut member: %d %s after %s, want 503 at once", code, body, took)
	}

	refused := []string{`"agent request"`, `"status":503`}
	probed := x.proc.countLines(refused...)
	if d := <-logged; d > leaseTTL {
		t.Errorf("the cut lease holder logged its first failed renewal %s after the cut, want within the lease TTL (%s)", d, leaseTTL)
	} else {
		t.Logf("the cut lease holder logged its first failed renewal %s after the cut", d.Round(time.Millisecond))
	}
	moved := c.waitLease(0, 30*time.Second, func(l leaseView) bool { return l.Holder != name })
	t.Logf("lease moved from %s (epoch %d) to %s (epoch %d) %s after the cut", name, held.Epoch, moved.Holder, moved.Epoch,
		time.Since(cutAt).Round(time.Millisecond))

	hosts := hostnames(1, 2, 3, 4, 5, 6)
	batch, _ := c.onboard(hosts...)
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 || !strings.Contains(w.stdout, "completed 6") {
		t.Fatalf("onboarding watch --batch with %s cut off from the store: %s", c.names[cut.member], w)
	}
	for h, r := range c.runs(batch) {
		if r.Status != "completed" {
			t.Errorf("%s: run %s, want completed", h, r.Status)
		}
	}
	if met := x.proc.countLines(refused...) - probed; met == 0 {
		t.Error("no booted agent reached the cut member (no agent request answered 503 in its log but the probes)")
	} else {
		t.Logf("the booted agents were answered 503 by the cut member %d times and moved on", met)
	}

	cut.setCut(false)
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, _, body = x.call(t, http.MethodGet, "/readyz", nil)
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz on the reconnected member: %d %s after 60 s", code, body)
		}
		time.Sleep(time.Second)
	}
}

type enrollProbe struct {
	status     int
	retryAfter string
	detail     string
	took       time.Duration
}

// enrollProbes sends n enrollments to d's agent API at once, each with a
// valid CSR and an unknown token (the store must be asked), and returns
// what each was answered and how long it took.
func enrollProbes(t *testing.T, d *daemon, n int) []enrollProbe {
	t.Helper()
	ca, err := os.ReadFile(filepath.Join(d.stateDir, "pki", "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13}}}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"node_id": "probe", "token": "no-such-token",
		"csr": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))})
	out := make([]enrollProbe, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			start := time.Now()
			resp, err := client.Post("https://"+d.agentAddr+"/internal/v1/nodes/enroll", "application/json", bytes.NewReader(body))
			out[i].took = time.Since(start)
			if err != nil {
				out[i].detail = err.Error()
				return
			}
			defer resp.Body.Close()
			var p struct{ Detail string }
			_ = json.NewDecoder(resp.Body).Decode(&p)
			out[i].status, out[i].retryAfter, out[i].detail = resp.StatusCode, resp.Header.Get("Retry-After"), p.Detail
		})
	}
	wg.Wait()
	return out
}

// countLines counts the output lines containing every one of subs.
func (p *proc) countLines(subs ...string) int {
	n := 0
next:
	for _, line := range strings.Split(p.out.String(), "\n") {
		for _, s := range subs {
			if !strings.Contains(line, s) {
				continue next
			}
		}
		n++
	}
	return n
}
