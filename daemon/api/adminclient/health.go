package adminclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
)

// NodeHealth reads node id's health verdict, checks and history.
func (c *Client) NodeHealth(ctx context.Context, id string) (answer.NodeHealthView, []byte, error) {
	var out answer.NodeHealthView
	raw, err := c.Call(ctx, http.MethodGet, Prefix+"/nodes/"+url.PathEscape(id)+"/health", nil, &out, nil)
	return out, raw, err
}

// ReportFault reports a fault on node id; the request's idempotency key
// also goes in the Idempotency-Key header, so a retry answers the first
// result.
func (c *Client) ReportFault(ctx context.Context, id string, q answer.FaultRequest) (answer.FaultAnswer, []byte, error) {
	var out answer.FaultAnswer
	var hdr map[string]string
	if q.IdempotencyKey != "" {
		hdr = map[string]string{"Idempotency-Key": q.IdempotencyKey}
	}
	raw, err := c.Call(ctx, http.MethodPost, Prefix+"/nodes/"+url.PathEscape(id)+"/faults", q, &out, hdr)
	return out, raw, err
}
