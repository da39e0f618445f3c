package maas

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// EventQuery is events/?op=query's parameters.
type EventQuery struct {
	After     *int   // events with a greater id, oldest `Limit` of them
	Before    *int   // events with a smaller id
	Level     string // AUDIT, DEBUG, INFO (MAAS default), WARNING, ERROR, CRITICAL
	Limit     int    // 1..1000; 0 means MAAS's default 100
	SystemIDs []string
	Hostnames []string
}

// Events queries MAAS's event log. MAAS returns newest first.
func (c *Client) Events(ctx context.Context, q EventQuery) ([]lifecycle.MaasEvent, error) {
	const op = "maas: events"
	if q.Limit < 0 || q.Limit > 1000 {
		return nil, lifecycle.Invalid(op, "limit", "must be between 1 and 1000, got %d", q.Limit)
	}
	if q.After != nil && q.Before != nil {
		return nil, lifecycle.Invalid(op, "after", "after and before cannot both be set")
	}
	v := url.Values{"id": q.SystemIDs, "hostname": q.Hostnames}
	if q.Level != "" {
		v.Set("level", q.Level)
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.After != nil {
		v.Set("after", strconv.Itoa(*q.After))
	}
	if q.Before != nil {
		v.Set("before", strconv.Itoa(*q.Before))
	}
	var w struct {
		Events []struct {
			ID          int     `json:"id"`
			Node        *string `json:"node"`
			Level       string  `json:"level"`
			Type        string  `json:"type"`
			Description string  `json:"description"`
			Created     string  `json:"created"`
		} `json:"events"`
	}
	if err := c.do(ctx, request{op: "events", method: http.MethodGet, path: "events/", maasOp: "query", params: v}, &w); err != nil {
		return nil, err
	}
	out := make([]lifecycle.MaasEvent, 0, len(w.Events))
	for _, e := range w.Events {
		t, _ := time.Parse("Mon, 02 Jan. 2006 15:04:05", e.Created)
		out = append(out, lifecycle.MaasEvent{ID: int64(e.ID), SystemID: str(e.Node),
			Level: e.Level, Type: e.Type, Description: e.Description, Created: t})
	}
	return out, nil
}

// Version reads MAAS's version/ (which MAAS answers without
// authentication).
func (c *Client) Version(ctx context.Context) (lifecycle.MaasVersion, error) {
	var w struct {
		Version      string   `json:"version"`
		Subversion   string   `json:"subversion"`
		Capabilities []string `json:"capabilities"`
	}
	err := c.do(ctx, request{op: "version", method: http.MethodGet, path: "version/"}, &w)
	return lifecycle.MaasVersion{Version: w.Version, Subversion: w.Subversion, Capabilities: w.Capabilities}, err
}

// WhoAmI reads the user the API key belongs to.
func (c *Client) WhoAmI(ctx context.Context) (lifecycle.MaasUser, error) {
	var w struct {
		Username    string `json:"username"`
		Email       string `json:"email"`
		IsSuperuser bool   `json:"is_superuser"`
	}
	err := c.do(ctx, request{op: "whoami", method: http.MethodGet, path: "users/", maasOp: "whoami"}, &w)
	return lifecycle.MaasUser{Username: w.Username, Email: w.Email, IsSuperuser: w.IsSuperuser}, err
}
