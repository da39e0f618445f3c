package cloudinit

import (
	"fmt"
	"strings"
)

// MachineCreds is MAAS's hardware-sync credentials file
// (/etc/maas/maas-machine-creds.yml), read by maas-run-scripts.
type MachineCreds struct {
	Reporting struct {
		MAAS struct {
			ConsumerKey string `yaml:"consumer_key"`
			Endpoint    string `yaml:"endpoint"`
			TokenKey    string `yaml:"token_key"`
			TokenSecret string `yaml:"token_secret"`
		} `yaml:"maas"`
	} `yaml:"reporting"`
}

// MachineCredsYAML renders h as the credentials file's content. The
// endpoint is the node's status URL under h.RackURL.
func MachineCredsYAML(h HardwareSync) ([]byte, error) {
	var c MachineCreds
	m := &c.Reporting.MAAS
	m.ConsumerKey, m.TokenKey, m.TokenSecret = h.ConsumerKey, h.TokenKey, h.TokenSecret
	m.Endpoint = strings.TrimSuffix(h.RackURL, "/") + "/metadata/status/" + h.SystemID
	b, err := marshalYAML(c)
	if err != nil {
		return nil, fmt.Errorf("encode machine credentials: %w", err)
	}
	return b, nil
}

// hwSyncPart installs the hardware-sync units and, when MAAS has emitted
// the machine token already, the credentials. Without a token (a machine
// MAAS released and redeploys) the units wait for the agent's
// node.hw_sync_reseed task to write the credentials and start them.
func hwSyncPart(h HardwareSync) (part, error) {
	interval := h.Interval
	if interval == "" {
		interval = DefaultHardwareSyncInterval
	}
	data := map[string]string{
		"RackURL": strings.TrimSuffix(h.RackURL, "/"), "CredsPath": MachineCredsPath, "Interval": interval,
	}
	service, err := execute("maas_hardware_sync.service.tmpl", data)
	if err != nil {
		return part{}, err
	}
	timer, err := execute("maas_hardware_sync.timer.tmpl", data)
	if err != nil {
		return part{}, err
	}
	units := []writeFile{
		file(hwSyncUnitDir+HardwareSyncService, "0644", service),
		file(hwSyncUnitDir+HardwareSyncTimer, "0644", timer),
	}
	if !h.hasToken() {
		return part{
			name:   "30-maas-hardware-sync.cfg",
			header: []string{"Layer 4: MAAS hardware-sync units; the credentials come later from the agent's node.hw_sync_reseed task."},
			cfg:    cloudConfig{WriteFiles: units, RunCmd: [][]string{{"systemctl", "daemon-reload"}}},
		}, nil
	}
	creds, err := MachineCredsYAML(h)
	if err != nil {
		return part{}, err
	}
	return part{
		name:   "30-maas-hardware-sync.cfg",
		header: []string{"Layer 4: MAAS hardware-sync credentials and the " + HardwareSyncTimer + " every " + interval + "."},
		cfg: cloudConfig{
			WriteFiles: append([]writeFile{file(MachineCredsPath, "0600", string(creds))}, units...),
			RunCmd: [][]string{
				{"systemctl", "daemon-reload"},
				{"systemctl", "enable", "--now", HardwareSyncTimer},
				{"systemctl", "start", "--no-block", HardwareSyncService},
			},
		},
	}, nil
}

// hasToken reports whether the machine token is known.
func (h HardwareSync) hasToken() bool {
	return h.ConsumerKey != "" || h.TokenKey != "" || h.TokenSecret != ""
}
