// Package config is the agent's configuration: the file
// /etc/gpuaas-node-agent/config.yaml that cloud-init writes, its defaults
// (all in Defaults) and Validate, which names the bad key.
package config
