package maas

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// SetIdentity sets a machine's hostname (unless empty) and its IPMI power
// parameters.
func (c *Client) SetIdentity(ctx context.Context, systemID, hostname string, bmc lifecycle.BMCLogin) (lifecycle.Machine, error) {
	v := url.Values{}
	if hostname != "" {
		v.Set("hostname", hostname)
	}
	ipmiParams(v, bmc)
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
func (c *Client) Accept(ctx context.Context, systemIDs ...string) ([]lifecycle.Machine, error) {
	var ws []wireMachine
	err := c.do(ctx, request{op: "accept", method: http.MethodPost, path: "machines/", maasOp: "accept",
		params: url.Values{"machines": systemIDs}}, &ws)
	if err != nil {
		return nil, err
	}
	return machines(ws), nil
}
