package console

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

// inProcessAddr is the remote address the admin API sees a console call
// come from: the console itself.
const inProcessAddr = "127.0.0.1:0"

// client is the admin API client of session s: the command line's, over
// a transport that calls the admin API's handler in this process.
func (c *Console) client(s *session) *adminclient.Client {
	return &adminclient.Client{Base: "http://console", Token: s.token.Reveal(), HTTP: c.adminHTTP}
}

// call makes one admin API request (path under /api/v1/admin) with the
// session's token and decodes a 2xx answer into out (when not nil); a
// refused one is an *adminclient.APIError.
func (c *Console) call(ctx context.Context, s *session, method, path string, q url.Values, body any, hdr map[string]string, out any) error {
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	_, err := c.client(s).Call(ctx, method, adminclient.Prefix+path, body, out, hdr)
	return err
}

// get is call for a GET.
func (c *Console) get(ctx context.Context, s *session, path string, q url.Values, out any) error {
	return c.call(ctx, s, http.MethodGet, path, q, nil, nil, out)
}
