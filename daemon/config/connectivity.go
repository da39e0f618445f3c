package config

import "time"

// Connectivity is the check that a deployed host answers on the address
// chosen by its site's deploy_ssh_iface before hardware sync is
// enforced (a TCP connect; seed 001 §4.3).
type Connectivity struct {
	// Port is the TCP port dialled, 22 (SSH) by default; 0 turns the
	// check off (dev mode, whose simulated hosts listen on nothing, and
	// test worlds without listening hosts).
	Port int `yaml:"port"`
	// Timeout bounds one connect.
	Timeout time.Duration `yaml:"timeout"`
}

func defaultConnectivity() Connectivity { return Connectivity{Port: 22, Timeout: 5 * time.Second} }

func (c Connectivity) validate() error {
	if c.Port < 0 || c.Port > 65535 {
		return invalid("connectivity.port", "%d is not a TCP port (0 turns the check off)", c.Port)
	}
	if err := positive(c.Timeout); err != "" {
		return invalid("connectivity.timeout", "%s %s", c.Timeout, err)
	}
	if c.Timeout > time.Minute {
		return invalid("connectivity.timeout", "%s is over 1m", c.Timeout)
	}
	return nil
}
