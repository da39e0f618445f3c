package main_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The skus key reaches the admin API: an onboarding naming a default SKU
// that the configured catalog lacks is refused naming sku_id and listing
// the configured ids; a bad entry stops serve naming it.
func TestServeSKUCatalog(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(conf, []byte("skus:\n  - id: test.80g.2gpu\n    gpus: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(dir, "state")
	p := startServe(t, stateDir, nil, "--config", conf)
	p.waitReady()
	body := `{"site_id": "dc1", "profile_id": "default", "sku_id": "mi300x.192g.8gpu", "hostname": "n1", "ipmi_ip": "10.0.0.1"}`
	req, err := http.NewRequest(http.MethodPost, "http://"+p.addr+"/api/v1/admin/onboardings", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+readToken(t, stateDir))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = io.Copy(&b, resp.Body)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(b.String(), `"field":"sku_id"`) ||
		!strings.Contains(b.String(), "known: test.80g.2gpu") {
		t.Errorf("onboarding with a SKU outside the configured catalog = %d %s", resp.StatusCode, b.String())
	}
	stop(t, p)

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("skus:\n  - id: test.80g.2gpu\n    gpus: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runBinary(t, "serve", "--config", bad, "--state-dir", stateDir)
	if code != 1 || !strings.Contains(stderr, "skus[0].gpus: 0 is not a positive GPU count") {
		t.Errorf("serve with a zero-GPU SKU = exit %d, stderr %q", code, stderr)
	}
}
