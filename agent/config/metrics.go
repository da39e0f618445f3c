package config

import (
	"errors"
	"path"
	"time"
)

// DefaultTextfileDir is Debian's prometheus-node-exporter textfile
// collector directory (its --collector.textfile.directory).
const DefaultTextfileDir = "/var/lib/prometheus/node-exporter"

// Metrics is where and how often the agent writes its own metrics.
type Metrics struct {
	// TextfileDir is node_exporter's textfile collector directory; the
	// agent keeps one file in it, gpuaas_node_agent.prom. Empty writes no
	// metrics.
	TextfileDir string `yaml:"textfile_dir"`
	// Interval is how often the file is rewritten when nothing changed
	// (it is also rewritten after every change).
	Interval time.Duration `yaml:"interval"`
}

func defaultMetrics() Metrics {
	return Metrics{TextfileDir: DefaultTextfileDir, Interval: 30 * time.Second}
}

// validate names the bad metrics key.
func (m Metrics) validate() error {
	d := m.TextfileDir
	switch {
	case d != "" && (!path.IsAbs(d) || path.Clean(d) != d || d == "/"):
		return errors.New("config: metrics.textfile_dir must be a clean absolute directory other than /, or empty to write no metrics")
	case m.Interval <= 0:
		return errors.New("config: metrics.interval must be positive")
	}
	return nil
}
