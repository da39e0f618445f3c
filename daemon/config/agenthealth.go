package config

import "time"

// Bounds of agent.health_interval: the agent's own minimum and the
// longest interval the daemon accepts in a health report.
const (
	MinAgentHealthInterval = time.Second
	MaxAgentHealthInterval = 24 * time.Hour
)

// DefaultAgentHealthInterval is agent.health_interval's default, the
// agent's own.
const DefaultAgentHealthInterval = time.Minute

// validateHealthInterval names agent.health_interval when it is outside
// what the agent and the daemon's health reports accept.
func (a Agent) validateHealthInterval() error {
	if a.HealthInterval < MinAgentHealthInterval || a.HealthInterval > MaxAgentHealthInterval {
		return invalid("agent.health_interval", "%s must be a duration of %s to %s, such as 60s",
			a.HealthInterval, MinAgentHealthInterval, MaxAgentHealthInterval)
	}
	return nil
}
