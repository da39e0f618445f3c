package maas

import (
	"context"
	"net/http"
	"net/url"
)

// MachineUpdate is what UpdateMachine changes; empty fields are left.
type MachineUpdate struct {
	Hostname string
	Power    *IPMIPower // sets power_type=ipmi and the given parameters
}

// UpdateMachine changes a machine's hostname and power parameters.
func (c *Client) UpdateMachine(ctx context.Context, systemID string, u MachineUpdate) (Machine, error) {
	v := url.Values{}
	if u.Hostname != "" {
		v.Set("hostname", u.Hostname)
	}
	if u.Power != nil {
		v.Set("power_type", "ipmi")
		u.Power.add(v)
	}
	return c.machineCall(ctx, "update", systemID, http.MethodPut, "", v)
}

// DeleteMachine removes a machine from MAAS (204).
func (c *Client) DeleteMachine(ctx context.Context, systemID string) error {
	if err := checkID("maas: delete", systemID); err != nil {
		return err
	}
	return c.do(ctx, request{op: "delete " + systemID, method: http.MethodDelete,
		path: "machines/" + url.PathEscape(systemID) + "/"}, nil)
}

// Accept moves New machines to commissioning; MAAS skips Ready and
// Commissioning ones. It returns the machines MAAS accepted.
func (c *Client) Accept(ctx context.Context, systemIDs ...string) ([]Machine, error) {
	var ws []wireMachine
	err := c.do(ctx, request{op: "accept", method: http.MethodPost, path: "machines/", maasOp: "accept",
		params: url.Values{"machines": systemIDs}}, &ws)
	if err != nil {
		return nil, err
	}
	out := make([]Machine, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.machine())
	}
	return out, nil
}
