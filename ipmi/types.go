package ipmi

import (
	"context"
	"strings"
)

// PowerState is a machine's power as the BMC reports it, normalised.
type PowerState string

// The normalised power states.
const (
	PowerOn      PowerState = "on"
	PowerOff     PowerState = "off"
	PowerUnknown PowerState = "unknown"
)

// PowerAction is a power change a BMC is asked to make.
type PowerAction string

// The supported power actions. PowerCycle powers on a machine that is off.
const (
	ActionOn    PowerAction = "on"
	ActionOff   PowerAction = "off"
	ActionCycle PowerAction = "cycle"
)

// BootDevice is a boot device a BMC can select for the next boots.
type BootDevice string

// The supported boot devices.
const (
	BootPXE  BootDevice = "pxe"
	BootDisk BootDevice = "disk"
)

// Target names one BMC and the credentials read for this operation. Port 0
// means the IPMI default, 623. Pass is never logged.
type Target struct {
	Host string
	Port int
	User string
	Pass string
}

// BMC is the narrow power interface the rest of the daemon uses. Client
// handles and sim/bmcsim's simulated BMCs implement it. Errors are
// *lifecycle.Error with the codes listed in the package documentation.
type BMC interface {
	PowerState(ctx context.Context) (PowerState, error)
	SetPower(ctx context.Context, a PowerAction) error
	SetBootDevice(ctx context.Context, dev BootDevice, persistent bool) error
}

// NormalizePowerState maps a provider's raw answer to on, off or unknown:
// ipmitool prints "Chassis Power is on", Redfish says "On" or "PoweringOn".
func NormalizePowerState(raw string) PowerState {
	s := strings.ToLower(strings.TrimSpace(raw))
	s = strings.TrimPrefix(s, "chassis power is ")
	switch s {
	case "on":
		return PowerOn
	case "off":
		return PowerOff
	}
	return PowerUnknown
}
