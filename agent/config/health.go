package config

import (
	"errors"
	"time"
)

// Health is the agent's passive health watch: a reading of the GPUs,
// the kernel log's Xid events and the PCI bus every Interval, reported
// to the daemon and written to the metrics file.
type Health struct {
	// Interval is the time between passes.
	Interval time.Duration `yaml:"interval"`
	// Off turns the watch off: no reading, no report.
	Off bool `yaml:"off"`
}

// MinHealthInterval bounds how often the watch may run.
const MinHealthInterval = time.Second

func defaultHealth() Health { return Health{Interval: time.Minute} }

// validate names the bad health key.
func (h Health) validate() error {
	if !h.Off && h.Interval < MinHealthInterval {
		return errors.New("config: health.interval must be at least 1s (or health.off: true)")
	}
	return nil
}
