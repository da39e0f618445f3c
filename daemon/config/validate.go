package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
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
	if err := c.AdminHTTP.validate("admin_http"); err != nil {
		return err
	}
	if err := c.Console.validate(); err != nil {
		return err
	}
	if err := positive(c.ShutdownTimeout); err != "" {
		return invalid("shutdown_timeout", "%s %s", c.ShutdownTimeout, err)
	}
	if err := positive(c.StoreLockTimeout); err != "" {
		return invalid("store_lock_timeout", "%s %s", c.StoreLockTimeout, err)
	}
	if err := positive(c.PollInterval); err != "" {
		return invalid("poll_interval", "%s %s", c.PollInterval, err)
	}
	if c.PollInterval > time.Minute {
		// The shipped MaasSidecarFeedStalled alert fires after 120 s
		// without a successful poll.
		return invalid("poll_interval", "%s is over 1m; the feed-stalled alert expects a poll at least every minute", c.PollInterval)
	}
	if err := c.Events.validate(); err != nil {
		return err
	}
	if err := c.Connectivity.validate(); err != nil {
		return err
	}
	if err := checkDaemonName(c.DaemonName); err != "" {
		return invalid("daemon_name", "%q %s", c.DaemonName, err)
	}
	if err := c.Store.validate(); err != nil {
		return err
	}
	if err := c.Notify.validate(); err != nil {
		return err
	}
	if err := c.validateSKUs(); err != nil {
		return err
	}
	return c.Agent.validate()
}

func (a Agent) validate() error {
	if err := checkHostPort(a.Listen); err != nil {
		return invalid("agent.listen", "%q is not host:port (%s)", a.Listen, err)
	}
	if err := a.HTTP.validate("agent.http"); err != nil {
		return err
	}
	if err := a.Connections.validate("agent.connections"); err != nil {
		return err
	}
	if a.URL != "" {
		u, err := url.Parse(a.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return invalid("agent.url", "%q is not an https URL", a.URL)
		}
	}
	if err := a.validateHealthInterval(); err != nil {
		return err
	}
	return a.validatePackages()
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
