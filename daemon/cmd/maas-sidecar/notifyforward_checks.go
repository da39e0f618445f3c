package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/notifyfwd"
)

func checkDurations(debounce, health, timeout time.Duration) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--debounce", debounce}, {"--health", health}, {"--timeout", timeout}} {
		if d.v <= 0 {
			return usageError(fmt.Sprintf("%s %s: must be above zero", d.name, d.v))
		}
	}
	return nil
}

// maxPendingLimit bounds --max-pending (each machine costs a few hundred
// bytes twice over).
const maxPendingLimit = 1000000

func checkLimits(maxPending int, metrics string) error {
	if maxPending < 1 || maxPending > maxPendingLimit {
		return usageError(fmt.Sprintf("--max-pending %d: give 1 to %d machines", maxPending, maxPendingLimit))
	}
	if metrics == "" {
		return nil
	}
	if _, port, err := net.SplitHostPort(metrics); err != nil || port == "" {
		return usageError(fmt.Sprintf("--metrics-listen %q: give host:port, e.g. 127.0.0.1:9465", metrics))
	}
	return nil
}

// checkClient builds the HTTP client, trusting --ca-file when given.
func checkClient(caFile string, timeout time.Duration, cfg *notifyfwd.Config) error {
	cfg.Client = &http.Client{Timeout: timeout}
	if caFile == "" {
		return nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return wrapUsage("--ca-file", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return usageError(fmt.Sprintf("--ca-file %q holds no PEM certificate", caFile))
	}
	cfg.Client.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	return nil
}
