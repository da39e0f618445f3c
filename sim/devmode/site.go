package devmode

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// SiteID is the dev site's id.
const SiteID = "dev-site"

// Host is a simulated server the demo can onboard.
type Host struct{ Hostname, IPMI string }

// Options tune Start. Zero values mean the defaults.
type Options struct {
	StateDir string
	Hosts    int     // simulated servers (12)
	Speed    float64 // MAAS time divisor (40: a 10-minute deploy takes 15 s)
	Logger   *slog.Logger
}

// Site is the simulated site: the MAAS simulator on a loopback listener,
// its hosts and their BMCs. Create with New, run with Run.
type Site struct {
	Sim           *maassim.Sim
	URL           string // MAAS base URL, http://127.0.0.1:port/MAAS/
	Secrets       *secrets.Memory
	BMCs          Fleet
	Hosts         []Host
	apiKey        string
	webhookSecret string
	dir           string
	ln            net.Listener
	log           *slog.Logger
	db            *regionDB // nil: no region database (StartRegionDB)
	up            booted
}

// New builds the simulated site and binds the simulator's listener;
// nothing runs until Run.
func New(o Options) (*Site, error) {
	if o.Hosts == 0 {
		o.Hosts = 12
	}
	if o.Speed == 0 {
		o.Speed = 40
	}
	key := randomKey()
	sim, err := maassim.New(maassim.Options{APIKey: key, Speed: o.Speed, Seed: 1, Logger: o.Logger.With("component", "maassim"),
		CustomImages: []string{"gpuaas-ubuntu-2204"}})
	if err != nil {
		return nil, err
	}
	mem, err := secrets.NewMemory(true)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Site{Sim: sim, URL: "http://" + ln.Addr().String() + "/MAAS/", Secrets: mem, BMCs: Fleet{},
		apiKey: key, webhookSecret: randomKey(), dir: filepath.Join(o.StateDir, "hosts"), ln: ln, log: o.Logger}
	s.up.dir = s.dir
	for i := 1; i <= o.Hosts; i++ {
		h := Host{Hostname: fmt.Sprintf("gpu%02d", i), IPMI: fmt.Sprintf("10.10.0.%d", i)}
		s.BMCs[h.IPMI] = sim.AddHost(maassim.HostSpec{PowerAddress: h.IPMI})
		s.Hosts = append(s.Hosts, h)
	}
	return s, nil
}

func randomKey() string {
	return randomHex(9) + ":" + randomHex(9) + ":" + randomHex(16)
}

// PrepareStateDir makes dir a dev state dir: a dir already used by dev
// mode starts fresh (the simulated site is new at every start); a dir
// holding a real store is refused.
func PrepareStateDir(dir, storeFile string) error {
	marker := filepath.Join(dir, ".dev-mode")
	_, markErr := os.Stat(marker)
	_, storeErr := os.Stat(filepath.Join(dir, storeFile))
	switch {
	case storeErr == nil && markErr != nil:
		return fmt.Errorf("--dev: %s holds a store that dev mode did not create; give --dev its own --state-dir", dir)
	case storeErr == nil:
		for _, p := range []string{storeFile, "hosts", "pki", "admin.token"} {
			if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return errors.Join(os.WriteFile(marker, []byte("state created by maas-sidecar serve --dev\n"), 0o600))
}

// Close releases the listener and removes the region database of a site
// that will not Run.
func (s *Site) Close() error { return errors.Join(s.ln.Close(), s.closeDB()) }
