package config

import "time"

// HTTP bounds what clients can hold on a listener: a request must arrive
// whole within read_timeout (so a body sent a byte at a time is cut), an
// answer must leave within write_timeout (long polls add their wait), and
// an idle keep-alive connection is closed after idle_timeout.
type HTTP struct {
	ReadTimeout    time.Duration `yaml:"read_timeout"`
	WriteTimeout   time.Duration `yaml:"write_timeout"`
	IdleTimeout    time.Duration `yaml:"idle_timeout"`
	MaxHeaderBytes int           `yaml:"max_header_bytes"`
	// MaxConnections caps concurrent connections; more wait to be
	// accepted. The agent listener's must exceed the fleet, since every
	// agent holds one long poll.
	MaxConnections int `yaml:"max_connections"`
}

// defaultHTTP is a listener's defaults; maxConns differs per listener.
func defaultHTTP(maxConns int) HTTP {
	return HTTP{
		ReadTimeout:    30 * time.Second,
		WriteTimeout:   30 * time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		MaxConnections: maxConns,
	}
}

func (h HTTP) validate(prefix string) error {
	for _, kd := range []struct {
		key string
		d   time.Duration
	}{{"read_timeout", h.ReadTimeout}, {"write_timeout", h.WriteTimeout}, {"idle_timeout", h.IdleTimeout}} {
		if err := positive(kd.d); err != "" {
			return invalid(prefix+"."+kd.key, "%s %s", kd.d, err)
		}
	}
	if h.MaxHeaderBytes < 1024 || h.MaxHeaderBytes > 1<<20 {
		return invalid(prefix+".max_header_bytes", "%d is not between 1024 and 1048576", h.MaxHeaderBytes)
	}
	if h.MaxConnections < 1 {
		return invalid(prefix+".max_connections", "%d is not a positive number", h.MaxConnections)
	}
	return nil
}
