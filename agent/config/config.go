package config

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/agent/scratchpath"
)

// DefaultPath is where cloud-init writes the agent's config.
const DefaultPath = "/etc/gpuaas-node-agent/config.yaml"

// Config is the agent's configuration. Host paths are resolved under the
// agent's --root.
type Config struct {
	// APIURL is the daemon's agent API, e.g. https://region-1:5291.
	APIURL string `yaml:"api_url"`
	NodeID string `yaml:"node_id"`
	// EnrollmentTokenPath holds the one-time token; it is re-read at each
	// enrollment attempt.
	EnrollmentTokenPath string `yaml:"enrollment_token_path"`
	// CABundlePath is the daemon's CA (PEM), the trust anchor for the API.
	CABundlePath string `yaml:"ca_bundle_path"`
	// SigningPublicKey is the daemon's ed25519 task-signing key, PKIX PEM.
	SigningPublicKey string `yaml:"signing_public_key"`
	// PollTimeout is the long-poll wait the agent asks for.
	PollTimeout time.Duration `yaml:"poll_timeout"`
	// TaskTimeout bounds a task that declares no timeout of its own.
	TaskTimeout time.Duration `yaml:"task_timeout"`
	// RetryInitial and RetryMax bound the reconnect backoff (with jitter).
	RetryInitial time.Duration `yaml:"retry_initial"`
	RetryMax     time.Duration `yaml:"retry_max"`
	// UnitName is the agent's own systemd unit (node.uninstall stops it).
	UnitName string `yaml:"unit_name"`
	// Cleanup is the node's policy for the turnover tasks.
	Cleanup Cleanup `yaml:"cleanup"`
	// Metrics is the agent's own metrics file (node_exporter textfile).
	Metrics Metrics `yaml:"metrics"`
	// Health is the passive health watch (on by default, every 60s).
	Health Health `yaml:"health"`
}

// Cleanup is the node-local policy of the cleanup and validation tasks.
type Cleanup struct {
	// KeepUsers are never revoked nor tenant residue (the deploy user).
	KeepUsers []string `yaml:"keep_users"`
	// ScratchRoots are the only directories storage cleanup empties as
	// scratch, with what lies under them ([/scratch]); a system or home
	// directory is refused here and at cleanup whatever this says.
	ScratchRoots []string `yaml:"scratch_roots"`
	// ScratchPaths are emptied with /tmp and /var/tmp by storage cleanup;
	// each lies at or under a scratch root.
	ScratchPaths []string `yaml:"scratch_paths"`
	// MountAllowlist adds mount points to clean validation's allowlist.
	MountAllowlist []string `yaml:"mount_allowlist"`
	// WekaConfigPaths are the tenant Weka client config removed by
	// storage cleanup mode weka.
	WekaConfigPaths []string `yaml:"weka_config_paths"`
}

// Defaults returns the configuration every unset key falls back to.
func Defaults() Config {
	return Config{
		EnrollmentTokenPath: "/etc/gpuaas-node-agent/enrollment-token",
		CABundlePath:        "/etc/gpuaas-node-agent/ca.pem",
		PollTimeout:         25 * time.Second,
		TaskTimeout:         10 * time.Minute,
		RetryInitial:        time.Second,
		RetryMax:            time.Minute,
		UnitName:            "gpuaas-node-agent.service",
		Cleanup: Cleanup{
			KeepUsers:       []string{"ubuntu"},
			ScratchRoots:    slices.Clone(scratchpath.DefaultRoots),
			WekaConfigPaths: []string{"/root/.weka"},
		},
		Metrics: defaultMetrics(),
		Health:  defaultHealth(),
	}
}

// Load reads the YAML file at path over Defaults and validates it.
// Unknown keys are errors.
func Load(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return Parse(b)
}

// Parse decodes YAML over Defaults and validates the result.
func Parse(b []byte) (Config, error) {
	c := Defaults()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return c, c.Validate()
}

// Validate checks every key, naming the first bad one.
func (c Config) Validate() error {
	u, err := url.Parse(c.APIURL)
	switch {
	case err != nil || u.Scheme != "https" || u.Host == "":
		return errors.New("config: api_url must be an https URL")
	case c.NodeID == "":
		return errors.New("config: node_id is required")
	case c.EnrollmentTokenPath == "":
		return errors.New("config: enrollment_token_path is required")
	case c.CABundlePath == "":
		return errors.New("config: ca_bundle_path is required")
	case c.PollTimeout <= 0 || c.TaskTimeout <= 0:
		return errors.New("config: poll_timeout and task_timeout must be positive")
	case c.RetryInitial <= 0 || c.RetryMax < c.RetryInitial:
		return errors.New("config: retry_initial must be positive and retry_max at least retry_initial")
	case c.UnitName == "":
		return errors.New("config: unit_name is required")
	}
	for _, l := range [][]string{c.Cleanup.ScratchPaths, c.Cleanup.MountAllowlist, c.Cleanup.WekaConfigPaths} {
		for _, p := range l {
			if !path.IsAbs(p) || path.Clean(p) != p || p == "/" {
				return fmt.Errorf("config: cleanup: %q must be a clean absolute path other than /", p)
			}
		}
	}
	if err := c.Cleanup.validateScratch(); err != nil {
		return err
	}
	if err := c.Metrics.validate(); err != nil {
		return err
	}
	if err := c.Health.validate(); err != nil {
		return err
	}
	if _, err := c.PublicKey(); err != nil {
		return err
	}
	return nil
}

// PublicKey parses SigningPublicKey.
func (c Config) PublicKey() (ed25519.PublicKey, error) {
	blk, _ := pem.Decode([]byte(c.SigningPublicKey))
	if blk == nil {
		return nil, errors.New("config: signing_public_key must be a PEM public key")
	}
	k, err := x509.ParsePKIXPublicKey(blk.Bytes)
	pub, ok := k.(ed25519.PublicKey)
	if err != nil || !ok {
		return nil, errors.New("config: signing_public_key must be an ed25519 public key")
	}
	return pub, nil
}
