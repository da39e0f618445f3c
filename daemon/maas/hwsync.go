package maas

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// configHWSyncInterval is the MAAS config item that sets the interval of
// the hardware-sync timer MAAS installs at deploy, and the sync_interval
// a machine takes when hardware sync is enabled on it.
const configHWSyncInterval = "hardware_sync_interval"

// HardwareSyncInterval reads MAAS's hardware_sync_interval (GET
// maas/?op=get_config answers a JSON string in systemd time-span syntax,
// such as "15m"). Errors: invalid when MAAS answers a value it would not
// accept itself, and the call's.
func (c *Client) HardwareSyncInterval(ctx context.Context) (time.Duration, error) {
	var v string
	err := c.do(ctx, request{op: "get_config " + configHWSyncInterval, method: http.MethodGet, path: "maas/",
		maasOp: "get_config", params: url.Values{"name": {configHWSyncInterval}}}, &v)
	if err != nil {
		return 0, err
	}
	d, perr := parseInterval(v)
	if perr != nil {
		return 0, lifecycle.Errorf(lifecycle.CodeInvalid, "maas: get_config", "%s: %v", configHWSyncInterval, perr)
	}
	return d, nil
}

// SetHardwareSyncInterval sets MAAS's hardware_sync_interval to d (POST
// maas/ op=set_config, admin only; MAAS answers 200 "OK"). Errors:
// invalid with MAAS's field message, forbidden for a non-admin key.
func (c *Client) SetHardwareSyncInterval(ctx context.Context, d time.Duration) error {
	if d < time.Second {
		return lifecycle.Invalid("maas: set_config", configHWSyncInterval, "%s is under a second", d)
	}
	return c.do(ctx, request{op: "set_config " + configHWSyncInterval, method: http.MethodPost, path: "maas/",
		maasOp: "set_config", params: url.Values{"name": {configHWSyncInterval}, "value": {formatInterval(d)}}}, nil)
}

// EnableHWSync turns enable_hw_sync on for a machine (PUT machines/{id}/
// with the admin machine form, which MAAS accepts in any status,
// Deployed included); MAAS gives the machine a sync_interval from
// hardware_sync_interval when it has none. Errors: invalid when MAAS
// refuses (a non-Linux deploy), forbidden, not_found.
func (c *Client) EnableHWSync(ctx context.Context, systemID string) (lifecycle.Machine, error) {
	return c.machineCall(ctx, "enable_hw_sync", systemID, http.MethodPut, "", url.Values{"enable_hw_sync": {"true"}})
}

// RackControllers lists the region's rack controllers (GET
// rackcontrollers/): id, hostname, MAAS version and service states.
func (c *Client) RackControllers(ctx context.Context) ([]lifecycle.RackController, error) {
	var ws []struct {
		SystemID string  `json:"system_id"`
		Hostname string  `json:"hostname"`
		Version  *string `json:"version"`
		Services []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"service_set"`
	}
	if err := c.do(ctx, request{op: "list rack controllers", method: http.MethodGet, path: "rackcontrollers/"}, &ws); err != nil {
		return nil, err
	}
	out := make([]lifecycle.RackController, 0, len(ws))
	for _, w := range ws {
		rc := lifecycle.RackController{SystemID: w.SystemID, Hostname: w.Hostname, Version: str(w.Version),
			Services: map[string]string{}}
		for _, s := range w.Services {
			rc.Services[s.Name] = s.Status
		}
		out = append(out, rc)
	}
	return out, nil
}
