// Package faketransport is a scripted agent.Transport for tests of the
// agent loop: each call runs the matching function (or answers nothing),
// and every call is recorded.
package faketransport

import (
	"context"
	"crypto/tls"
	"errors"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var errNotScripted = errors.New("faketransport: call not scripted")

// Transport answers with the functions set on it.
type Transport struct {
	EnrollFn func(wire.EnrollRequest) (wire.CertResponse, error)
	TokenFn  func(wire.TokenRenewRequest) (wire.TokenRenewResponse, error)
	RenewFn  func(wire.RenewRequest) (wire.CertResponse, error)
	WaitFn   func() (*wire.Task, error)
	ReportFn func(taskID string, res wire.Result) error

	mu    sync.Mutex
	calls []string
	cert  *tls.Certificate
}

func (t *Transport) record(c string) { t.mu.Lock(); t.calls = append(t.calls, c); t.mu.Unlock() }

// Enroll implements agent.Transport.
func (t *Transport) Enroll(_ context.Context, req wire.EnrollRequest) (wire.CertResponse, error) {
	t.record("enroll")
	if t.EnrollFn == nil {
		return wire.CertResponse{}, errNotScripted
	}
	return t.EnrollFn(req)
}

// RenewToken implements agent.Transport.
func (t *Transport) RenewToken(_ context.Context, req wire.TokenRenewRequest) (wire.TokenRenewResponse, error) {
	t.record("renew_token")
	if t.TokenFn == nil {
		return wire.TokenRenewResponse{}, errNotScripted
	}
	return t.TokenFn(req)
}

// Renew implements agent.Transport.
func (t *Transport) Renew(_ context.Context, _ string, req wire.RenewRequest) (wire.CertResponse, error) {
	t.record("renew")
	if t.RenewFn == nil {
		return wire.CertResponse{}, errNotScripted
	}
	return t.RenewFn(req)
}

// Wait implements agent.Transport; it blocks until ctx ends without WaitFn.
func (t *Transport) Wait(ctx context.Context, _ string, _ time.Duration) (*wire.Task, error) {
	t.record("wait")
	if t.WaitFn == nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return t.WaitFn()
}

// Report implements agent.Transport.
func (t *Transport) Report(_ context.Context, _, taskID string, res wire.Result) error {
	t.record("report")
	if t.ReportFn == nil {
		return nil
	}
	return t.ReportFn(taskID, res)
}

// SetIdentity implements agent.Transport.
func (t *Transport) SetIdentity(c *tls.Certificate) { t.mu.Lock(); t.cert = c; t.mu.Unlock() }

// Identity returns the certificate presented now.
func (t *Transport) Identity() *tls.Certificate { t.mu.Lock(); defer t.mu.Unlock(); return t.cert }

// Calls returns the calls so far.
func (t *Transport) Calls() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.calls...)
}
