package main

import (
	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
	"github.com/gpuaas/maas-sidecar/daemon/config"
)

// limits turns a listener's config section into the server's limits.
func limits(h config.HTTP) api.Limits {
	return api.Limits{ReadTimeout: h.ReadTimeout, WriteTimeout: h.WriteTimeout, IdleTimeout: h.IdleTimeout,
		MaxHeaderBytes: h.MaxHeaderBytes, MaxConns: h.MaxConnections}
}

// admission turns agent.connections into the agent listener's guard.
func admission(c config.AgentConnections) connguard.Options {
	return connguard.Options{PerSource: c.PerSource, UnauthenticatedPercent: c.UnauthenticatedPercent,
		HandshakeTimeout: c.HandshakeTimeout}
}
