package config

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Validate checks every key and returns the first problem as an invalid
// lifecycle.Error whose Field and message name the key, e.g.
// `config: admin_listen: "x" is not host:port`.
func (c Config) Validate() error {
	if err := checkHostPort(c.AdminListen); err != nil {
		return invalid("admin_listen", "%q is not host:port (%s)", c.AdminListen, err)
	}
	if c.StateDir == "" {
		return invalid("state_dir", "must not be empty")
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		return invalid("log_level", "%q is not one of debug, info, warn, error", c.LogLevel)
	}
	if err := positive(c.ShutdownTimeout); err != "" {
		return invalid("shutdown_timeout", "%s %s", c.ShutdownTimeout, err)
	}
	if err := positive(c.StoreLockTimeout); err != "" {
		return invalid("store_lock_timeout", "%s %s", c.StoreLockTimeout, err)
	}
	return nil
}

// ParseLevel turns a log_level value into a slog.Level.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

func checkHostPort(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q is not a number from 0 to 65535", port)
	}
	return nil
}

func positive(d time.Duration) string {
	if d <= 0 {
		return "is not a positive duration"
	}
	return ""
}

func invalid(key, format string, args ...any) error {
	e := lifecycle.Invalid("config", key, format, args...)
	e.Msg = key + ": " + e.Msg
	return e
}
