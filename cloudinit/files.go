package cloudinit

import (
	"bytes"
	"embed"
	"fmt"
	"text/template"
)

// Paths on the node, shared with the agent and the daemon.
const (
	AgentConfigPath     = "/etc/gpuaas-node-agent/config.yaml"
	EnrollmentTokenPath = "/etc/gpuaas-node-agent/enrollment-token"
	CABundlePath        = "/etc/gpuaas-node-agent/ca.pem"
	MachineCredsPath    = "/etc/maas/maas-machine-creds.yml"
	// BootstrapStateDir holds site.status and agent.status, each "ok" or
	// "failed step=...", so a failed first boot can be classified.
	BootstrapStateDir = "/var/lib/gpuaas-bootstrap"
)

// Units on the node. The hardware-sync names and paths are MAAS's own, so
// the agent's node.hw_sync_reseed restarts the same units MAAS installs.
const (
	HardwareSyncTimer   = "maas_hardware_sync.timer"
	HardwareSyncService = "maas_hardware_sync.service"
	hwSyncUnitDir       = "/lib/systemd/system/"
	RoCERoutingService  = "gpuaas-roce-routing.service"
)

// Scripts installed on the node.
const (
	siteBootstrapBin = "/usr/local/sbin/gpuaas-site-bootstrap"
	installAgentBin  = "/usr/local/sbin/gpuaas-install-agent"
	shareDisksBin    = "/usr/local/sbin/gpuaas-init-share-disks"
	roceRoutingBin   = "/usr/local/sbin/gpuaas-roce-routing"
)

//go:embed files
var files embed.FS

// static returns an embedded file's text.
func static(name string) string {
	b, err := files.ReadFile("files/" + name)
	if err != nil {
		panic("cloudinit: missing embedded file " + name) // a build defect
	}
	return string(b)
}

// execute renders the embedded template name with data.
func execute(name string, data any) (string, error) {
	t, err := template.New(name).Option("missingkey=error").Parse(static(name))
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return b.String(), nil
}
