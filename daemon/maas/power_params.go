package maas

import (
	"context"
	"net/http"
	"net/url"
)

// PowerAddresses returns the BMC address (power_address) of each machine
// named, or of every machine when ids is empty, keyed by system id. It
// reads MAAS's bulk power_parameters op but hands back only addresses:
// the BMC user and password in that answer never leave this function.
func (c *Client) PowerAddresses(ctx context.Context, ids ...string) (map[string]string, error) {
	q := url.Values{"id": ids}
	var all map[string]map[string]any
	if err := c.do(ctx, request{op: "power parameters", method: http.MethodGet, path: "machines/", maasOp: "power_parameters", params: q}, &all); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for sid, p := range all {
		if addr, ok := p["power_address"].(string); ok {
			out[sid] = addr
		}
	}
	return out, nil
}
