package config

import "time"

// AgentConnections bound the agent listener's connections so that one
// source cannot exhaust it: a TLS handshake must finish within
// handshake_timeout, and connections without a verified client
// certificate (handshaking, or enrolling) hold at most per_source per
// source address and unauthenticated_percent of
// agent.http.max_connections in all; the rest is kept for enrolled agents.
type AgentConnections struct {
	HandshakeTimeout       time.Duration `yaml:"handshake_timeout"`
	PerSource              int           `yaml:"per_source"`
	UnauthenticatedPercent int           `yaml:"unauthenticated_percent"`
}

func defaultAgentConnections() AgentConnections {
	return AgentConnections{HandshakeTimeout: 10 * time.Second, PerSource: 128, UnauthenticatedPercent: 25}
}

func (a AgentConnections) validate(prefix string) error {
	if err := positive(a.HandshakeTimeout); err != "" {
		return invalid(prefix+".handshake_timeout", "%s %s", a.HandshakeTimeout, err)
	}
	if a.PerSource < 1 {
		return invalid(prefix+".per_source", "%d is not a positive number", a.PerSource)
	}
	if a.UnauthenticatedPercent < 1 || a.UnauthenticatedPercent > 100 {
		return invalid(prefix+".unauthenticated_percent", "%d is not between 1 and 100", a.UnauthenticatedPercent)
	}
	return nil
}
