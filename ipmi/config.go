package ipmi

import (
	"slices"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Provider names a bmclib provider a site may enable.
const (
	ProviderIPMITool = "ipmitool"
	ProviderRedfish  = "gofish"
)

// MaxTimeout bounds Config.Timeout. ipmitool gives up on a silent BMC after
// about 50 s on its own; a shorter timeout keeps "no answer" (unavailable)
// apart from "session refused" (bad credentials), which ipmitool reports
// with the same text.
const MaxTimeout = 30 * time.Second

// Config is the power configuration of a site. The zero value of a field
// means its default (see Defaults).
type Config struct {
	Providers    []string      // bmclib providers in the order tried; default ipmitool only
	CipherSuite  string        // IPMI cipher suite; default "3" (without it ipmitool probes for ~10 s)
	Timeout      time.Duration // per attempt: open, the operation and close; default 20 s
	Attempts     int           // attempts for transient errors; default 3
	Backoff      time.Duration // backoff before the second attempt, doubling; default 1 s
	MaxBackoff   time.Duration // backoff cap; default 10 s
	EFIBoot      bool          // ask for an EFI boot when setting the boot device
	IPMIToolPath string        // the ipmitool binary; default: found in PATH
}

// Defaults returns c with every zero field set to its default.
func (c Config) Defaults() Config {
	if len(c.Providers) == 0 {
		c.Providers = []string{ProviderIPMITool}
	}
	if c.CipherSuite == "" {
		c.CipherSuite = "3"
	}
	if c.Timeout == 0 {
		c.Timeout = 20 * time.Second
	}
	if c.Attempts == 0 {
		c.Attempts = 3
	}
	if c.Backoff == 0 {
		c.Backoff = time.Second
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = 10 * time.Second
	}
	return c
}

// Validate reports the first bad field as a CodeInvalid error.
func (c Config) Validate() error {
	const op = "ipmi.Config"
	for i, p := range c.Providers {
		if p != ProviderIPMITool && p != ProviderRedfish {
			return lifecycle.Invalid(op, "providers", "unknown provider %q (want %s or %s)", p, ProviderIPMITool, ProviderRedfish)
		}
		if slices.Contains(c.Providers[:i], p) {
			return lifecycle.Invalid(op, "providers", "provider %q is listed twice", p)
		}
	}
	if n, err := strconv.Atoi(c.CipherSuite); err != nil || n < 0 || n > 17 {
		return lifecycle.Invalid(op, "cipher_suite", "want an IPMI cipher suite 0-17, got %q", c.CipherSuite)
	}
	if c.Timeout <= 0 || c.Timeout > MaxTimeout {
		return lifecycle.Invalid(op, "timeout", "want more than 0 and at most %s, got %s", MaxTimeout, c.Timeout)
	}
	if c.Attempts < 1 || c.Attempts > 10 {
		return lifecycle.Invalid(op, "attempts", "want 1-10, got %d", c.Attempts)
	}
	if c.Backoff <= 0 || c.MaxBackoff < c.Backoff {
		return lifecycle.Invalid(op, "backoff", "want 0 < backoff <= max_backoff")
	}
	return nil
}
