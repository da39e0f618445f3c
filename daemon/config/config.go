// Package config is the daemon's configuration: one Config type, its
// defaults in one place, YAML loading that rejects unknown keys, and
// validation whose errors name the offending key.
package config

import (
	"time"
)

// DefaultPath is where serve looks for its config file when --config is not
// given. A missing file there is not an error.
const DefaultPath = "/etc/maas-sidecar/config.yaml"

// Config is the configuration of `maas-sidecar serve`. The YAML keys are the
// field tags; command-line flags override file values.
type Config struct {
	// AdminListen is the host:port of the admin API, /healthz, /readyz and
	// /metrics. Port 0 picks a free port (the bound address is logged).
	AdminListen string `yaml:"admin_listen"`
	// StateDir holds the store file and the first admin token; it is
	// created with mode 0700.
	StateDir string `yaml:"state_dir"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// ShutdownTimeout bounds how long in-flight HTTP requests may run
	// after SIGTERM before they are cut.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// StoreLockTimeout bounds the wait for the store file's lock when
	// another process holds it.
	StoreLockTimeout time.Duration `yaml:"store_lock_timeout"`
}

// Default returns the configuration used for every key the file and the
// flags leave unset.
func Default() Config {
	return Config{
		AdminListen:      "127.0.0.1:5290",
		StateDir:         "/var/lib/maas-sidecar",
		LogLevel:         "info",
		ShutdownTimeout:  10 * time.Second,
		StoreLockTimeout: 5 * time.Second,
	}
}
