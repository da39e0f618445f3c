package maas

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Subnets lists every subnet.
func (c *Client) Subnets(ctx context.Context) ([]Subnet, error) {
	var ws []wireSubnet
	if err := c.do(ctx, request{op: "subnets", method: http.MethodGet, path: "subnets/"}, &ws); err != nil {
		return nil, err
	}
	out := make([]Subnet, 0, len(ws))
	for i := range ws {
		out = append(out, *ws[i].subnet())
	}
	return out, nil
}

// NewSubnet is what CreateSubnet sends; VLANID 0 lets MAAS make a fabric.
type NewSubnet struct {
	CIDR, Name, Description, GatewayIP string
	VLANID                             int
	DNSServers                         []string
}

// CreateSubnet creates a subnet (admin).
func (c *Client) CreateSubnet(ctx context.Context, n NewSubnet) (Subnet, error) {
	if n.CIDR == "" {
		return Subnet{}, lifecycle.Invalid("maas: create subnet", "cidr", "must not be empty")
	}
	v := url.Values{"cidr": {n.CIDR}}
	for k, val := range map[string]string{"name": n.Name, "description": n.Description, "gateway_ip": n.GatewayIP} {
		if val != "" {
			v.Set(k, val)
		}
	}
	if n.VLANID != 0 {
		v.Set("vlan", strconv.Itoa(n.VLANID))
	}
	if len(n.DNSServers) > 0 {
		v.Set("dns_servers", strings.Join(n.DNSServers, ","))
	}
	var w wireSubnet
	if err := c.do(ctx, request{op: "create subnet " + n.CIDR, method: http.MethodPost, path: "subnets/", params: v}, &w); err != nil {
		return Subnet{}, err
	}
	return *w.subnet(), nil
}
