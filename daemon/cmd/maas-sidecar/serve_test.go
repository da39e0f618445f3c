package main_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// TestServeBinary starts the real binary twice on one state directory:
// probes, metrics, the 0600 admin token, exit 0 within 5 s of SIGTERM,
// and the second start keeping the token.
func TestServeBinary(t *testing.T) {
	stateDir := filepath.Join(t.TempDir(), "state")
	first := startServe(t, stateDir, nil)
	first.waitReady()
	if code, body, err := get(first.addr, "/healthz"); err != nil || code != http.StatusOK {
		t.Fatalf("/healthz = %d %q %v, want 200", code, body, err)
	}
	checkMetrics(t, first.addr)
	token := readToken(t, stateDir)
	checkMode(t, stateDir, 0o700)
	checkMode(t, filepath.Join(stateDir, admintoken.FileName), 0o600)
	firstID := first.waitLog("admin token ready")["token_id"]
	stop(t, first)

	second := startServe(t, stateDir, nil)
	second.waitReady()
	ready := second.waitLog("admin token ready")
	if ready["outcome"] != string(admintoken.Kept) || ready["token_id"] != firstID {
		t.Errorf("second start: admin token %v, want kept with id %v", ready, firstID)
	}
	stop(t, second)
	if again := readToken(t, stateDir); again != token {
		t.Error("second start changed admin.token")
	}
	checkStored(t, stateDir, token)
}

func stop(t *testing.T, p *proc) {
	t.Helper()
	code, took := p.terminate()
	if code != 0 {
		t.Fatalf("exit code %d after SIGTERM (took %s), want 0; log:\n%s", code, took, p.log())
	}
	p.waitLog("maas-sidecar stopped")
}

func checkMetrics(t *testing.T, addr string) {
	t.Helper()
	code, body, err := get(addr, "/metrics")
	if err != nil || code != http.StatusOK {
		t.Fatalf("/metrics = %d %v", code, err)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	bi, ok := fams["maas_sidecar_build_info"]
	if !ok || len(bi.GetMetric()) != 1 || !strings.Contains(bi.GetMetric()[0].String(), testVersion) {
		t.Errorf("maas_sidecar_build_info = %v, want one sample with version %s", bi, testVersion)
	}
	if _, ok := fams["process_resident_memory_bytes"]; !ok {
		t.Error("/metrics lacks the process collector")
	}
}

func readToken(t *testing.T, stateDir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(stateDir, admintoken.FileName))
	if err != nil {
		t.Fatal(err)
	}
	tok := strings.TrimSpace(string(b))
	if !strings.HasPrefix(tok, admintoken.Prefix) {
		t.Fatalf("admin.token does not start with %s", admintoken.Prefix)
	}
	return tok
}

func checkMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != want {
		t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, want)
	}
}

// checkStored opens the stopped daemon's store and finds the token valid.
func checkStored(t *testing.T, stateDir, token string) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(stateDir, bolt.FileName), bolt.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.AdminTokenByHash(context.Background(), admintoken.Hash(token))
	if err != nil {
		t.Fatalf("token from admin.token not in the store: %v", err)
	}
	if got.RevokedAt != nil || got.Role != lifecycle.RoleAdmin || got.Name != admintoken.Name {
		t.Errorf("stored token = %+v, want an unrevoked admin token named %s", got, admintoken.Name)
	}
}
