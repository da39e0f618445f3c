package maas

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Subnets lists every subnet.
func (c *Client) Subnets(ctx context.Context) ([]lifecycle.Subnet, error) {
	var ws []wireSubnet
	if err := c.do(ctx, request{op: "subnets", method: http.MethodGet, path: "subnets/"}, &ws); err != nil {
		return nil, err
	}
	out := make([]lifecycle.Subnet, 0, len(ws))
	for i := range ws {
		out = append(out, ws[i].subnet())
	}
	return out, nil
}

// CreateSubnet creates a subnet (admin) on a new fabric that MAAS makes.
func (c *Client) CreateSubnet(ctx context.Context, cidr, description string) (lifecycle.Subnet, error) {
	if cidr == "" {
		return lifecycle.Subnet{}, lifecycle.Invalid("maas: create subnet", "cidr", "must not be empty")
	}
	v := url.Values{"cidr": {cidr}}
	if description != "" {
		v.Set("description", description)
	}
	var w wireSubnet
	if err := c.do(ctx, request{op: "create subnet " + cidr, method: http.MethodPost, path: "subnets/", params: v}, &w); err != nil {
		return lifecycle.Subnet{}, err
	}
	return w.subnet(), nil
}
