package bridge

import (
	"context"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// MaasConnector opens maas.Clients for the workflows.
type MaasConnector struct {
	Logger *slog.Logger
	Now    func() time.Time // the clock OAuth timestamps use
	// Metrics counts MAAS requests by op; nil for none.
	Metrics *maas.Metrics
}

// Connect implements workflow.Connector.
func (mc MaasConnector) Connect(baseURL, apiKey string) (workflow.MAAS, error) {
	c, err := maas.New(maas.Config{BaseURL: baseURL, APIKey: apiKey, Logger: mc.Logger, Now: mc.Now, Metrics: mc.Metrics})
	if err != nil {
		return nil, err
	}
	return Maas{C: c}, nil
}

// Maas is workflow.MAAS over a maas.Client.
type Maas struct{ C *maas.Client }

var _ workflow.MAAS = Maas{}

// Version implements workflow.MAAS.
func (m Maas) Version(ctx context.Context) (string, error) {
	v, err := m.C.Version(ctx)
	return v.Version, err
}

// WhoAmI implements workflow.MAAS.
func (m Maas) WhoAmI(ctx context.Context) (string, error) {
	u, err := m.C.WhoAmI(ctx)
	return u.Username, err
}

// Machines implements workflow.MAAS: filtered by hostname and/or MAC, all
// when both are empty.
func (m Maas) Machines(ctx context.Context, hostname, mac string) ([]workflow.Machine, error) {
	var f maas.MachineFilter
	if hostname != "" {
		f.Hostnames = []string{hostname}
	}
	if mac != "" {
		f.MACAddresses = []string{mac}
	}
	ms, err := m.C.Machines(ctx, f)
	out := make([]workflow.Machine, 0, len(ms))
	for _, x := range ms {
		out = append(out, machine(x))
	}
	return out, err
}

// PowerAddresses implements workflow.MAAS.
func (m Maas) PowerAddresses(ctx context.Context) (map[string]string, error) {
	return m.C.PowerAddresses(ctx)
}

// Machine implements workflow.MAAS.
func (m Maas) Machine(ctx context.Context, sid string) (workflow.Machine, error) {
	x, err := m.C.Machine(ctx, sid)
	return machine(x), err
}

// CreateMachine implements workflow.MAAS.
func (m Maas) CreateMachine(ctx context.Context, hostname string, b workflow.BMCLogin) (workflow.Machine, error) {
	x, err := m.C.CreateMachine(ctx, maas.NewMachine{Hostname: hostname, Power: ipmiPower(b)})
	return machine(x), err
}

// SetIdentity implements workflow.MAAS.
func (m Maas) SetIdentity(ctx context.Context, sid, hostname string, b workflow.BMCLogin) error {
	p := ipmiPower(b)
	_, err := m.C.UpdateMachine(ctx, sid, maas.MachineUpdate{Hostname: hostname, Power: &p})
	return err
}

// Accept implements workflow.MAAS.
func (m Maas) Accept(ctx context.Context, sid string) error {
	_, err := m.C.Accept(ctx, sid)
	return err
}

// Commission implements workflow.MAAS with seed 001's options.
func (m Maas) Commission(ctx context.Context, sid string) error {
	_, err := m.C.Commission(ctx, sid, maas.CommissionOptions{EnableSSH: true, SkipBMCConfig: true})
	return err
}

func ipmiPower(b workflow.BMCLogin) maas.IPMIPower {
	return maas.IPMIPower{Address: b.Address, User: b.User, Password: b.Pass}
}

func machine(x maas.Machine) workflow.Machine {
	return workflow.Machine{SystemID: x.SystemID, Hostname: x.Hostname, Status: x.Status,
		StatusMessage: x.StatusMessage, ErrorDescription: x.ErrorDescription, PowerState: x.PowerState,
		IPs: x.IPAddresses, BootDiskID: x.BootDiskID, HWSyncEnabled: x.HardwareSync.Enabled,
		LastSync: x.HardwareSync.LastSync, NextSync: x.HardwareSync.NextSync}
}

func eraseOpts(e lifecycle.EraseMode) maas.ReleaseOptions {
	switch e {
	case lifecycle.EraseQuick:
		return maas.ReleaseOptions{Erase: true, QuickErase: true}
	case lifecycle.EraseSecure:
		return maas.ReleaseOptions{Erase: true, SecureErase: true}
	}
	return maas.ReleaseOptions{}
}
