package adminclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
)

// RunPath is the path of run id of kind k (under Prefix), or of the
// kind's collection when id is "".
func RunPath(k answer.RunKind, id string) string {
	if id == "" {
		return Prefix + "/" + k.Collection
	}
	return Prefix + "/" + k.Collection + "/" + url.PathEscape(id)
}

// GetRun reads run id of kind k with its recent events (and tasks).
func (c *Client) GetRun(ctx context.Context, k answer.RunKind, id string) (answer.RunView, []byte, error) {
	var v answer.RunView
	raw, err := c.Call(ctx, http.MethodGet, RunPath(k, id), nil, &v, nil)
	return v, raw, err
}

// ListRuns reads one page of runs of kind k; q holds the kind's filters,
// limit and cursor.
func (c *Client) ListRuns(ctx context.Context, k answer.RunKind, q url.Values) (answer.RunList, []byte, error) {
	l := answer.RunList{Kind: k}
	path := RunPath(k, "")
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	raw, err := c.Call(ctx, http.MethodGet, path, nil, &l, nil)
	return l, raw, err
}

// Recover takes recovery action path (an answer.Recoveries path) on run
// id of kind k, with the reason the audit entry records.
func (c *Client) Recover(ctx context.Context, k answer.RunKind, id, path, reason string) (answer.ActionResult, []byte, error) {
	var out answer.ActionResult
	raw, err := c.Call(ctx, http.MethodPost, RunPath(k, id)+"/"+path, answer.ActionRequest{Reason: reason}, &out,
		map[string]string{"X-Audit-Reason": reason})
	return out, raw, err
}

// Decommission starts a decommission of node id; key, when not "", makes
// a retried request answer the first result.
func (c *Client) Decommission(ctx context.Context, id string, q answer.DecommissionRequest, key string) (answer.DecommissionResult, []byte, error) {
	var out answer.DecommissionResult
	raw, err := c.Call(ctx, http.MethodPost, Prefix+"/nodes/"+url.PathEscape(id)+"/decommission", q, &out,
		map[string]string{"Idempotency-Key": key, "X-Audit-Reason": q.Reason})
	return out, raw, err
}
