//go:build integration

package grafana

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
	"github.com/gpuaas/maas-sidecar/internal/pgcluster"
)

// Template variables as Grafana would expand them against this test's
// daemon: the dev-mode site, and a rate window of several 1 s scrapes.
var expand = strings.NewReplacer("$__rate_interval", "10s", "${site}", "dev-site", "$site", "dev-site")

// noSeries lists the targets that cannot have a series against a dev-mode
// daemon, with the reason. Keep it empty unless a metric really cannot
// exist there.
var noSeries = map[string]string{}

// The dashboard's queries and the alert rules, checked against Debian's
// prometheus scraping a running daemon in dev mode (a simulated MAAS site
// and its demo batch): every rule group loads and evaluates without
// error, and every dashboard target parses and returns at least one
// series. prometheus comes from Debian's prometheus package, and the
// region database listener's series from dev mode's local PostgreSQL,
// Debian's postgresql package (hack/apt-packages.txt); without either
// this test fails.
func TestDashboardAndAlertsOnRealPrometheus(t *testing.T) {
	prom, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("prometheus not found: install the Debian prometheus package (make test-deps)")
	}
	if err := pgcluster.Available(); err != nil {
		t.Fatalf("dev mode's region database listener needs PostgreSQL: %v", err)
	}
	d := loadDashboard(t)
	dir := t.TempDir()
	daemonAddr := startDaemon(t, buildDaemon(t, dir), dir)
	api := startPrometheus(t, prom, dir, daemonAddr)
	checkRules(t, api, 20*time.Second)
	checkQueries(t, api, d.queries(), 40*time.Second)
	sites := api.labelValues(t, "site", "maas_sidecar_nodes")
	if !strings.Contains(strings.Join(sites, ","), "dev-site") {
		t.Errorf("the site variable's values are %v, want dev-site among them", sites)
	}
}

// buildDaemon compiles the daemon with dev mode (the dev tag) into dir
// under a neutral name.
func buildDaemon(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "obstest-daemon")
	cmd := exec.Command("go", "build", "-tags", "dev", "-o", bin, "./daemon/cmd/maas-sidecar")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startDaemon runs `serve --dev` with a fresh state directory, its admin
// listener on a free port and its lifecycle events posted to a receiver
// that accepts them (so that the outbox's metrics exist), and waits until
// it is ready.
func startDaemon(t *testing.T, bin, dir string) string {
	t.Helper()
	events := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(events.Close)
	secret := filepath.Join(dir, "events.secret")
	addr := freeport.Addr(t)
	cfg := filepath.Join(dir, "config.yaml")
	write(t, secret, "events-signing-secret-0123456789")
	write(t, cfg, fmt.Sprintf("admin_listen: %s\nstate_dir: %s\nlog_level: info\nshutdown_timeout: 5s\npoll_interval: 1s\nevents:\n  url: %s\n  secret_file: %s\n",
		addr, filepath.Join(dir, "state"), events.URL, secret))
	p := startProc(t, "maas-sidecar serve --dev", bin, "serve", "--dev", "--config", cfg)
	waitHTTP(t, p, "http://"+addr+"/readyz", 30*time.Second)
	return addr
}

// startPrometheus runs prometheus with the alert rules, scraping the
// daemon every second as job maas-sidecar, and waits until it is ready.
func startPrometheus(t *testing.T, bin, dir, target string) promAPI {
	t.Helper()
	rules, err := filepath.Abs(filepath.Join("..", "prometheus", "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	write(t, cfg, fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [%q]
scrape_configs:
  - job_name: maas-sidecar
    static_configs:
      - targets: [%q]
`, rules, target))
	addr := freeport.Addr(t)
	p := startProc(t, "prometheus", bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "tsdb"),
		"--web.listen-address="+addr, "--log.level=warn")
	waitHTTP(t, p, "http://"+addr+"/-/ready", 30*time.Second)
	return promAPI{base: "http://" + addr}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitHTTP waits until url answers 200, failing at once if p exits.
func waitHTTP(t *testing.T, p *proc, url string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if p.exited() {
			t.Fatalf("%s exited before %s answered", p.name, url)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within %s", url, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
