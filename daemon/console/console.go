package console

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// Prefix is the root of every console page.
const Prefix = "/console/"

// Tokens finds an admin token by its hash (the store does).
type Tokens interface {
	AdminTokenByHash(ctx context.Context, hash string) (lifecycle.AdminToken, error)
}

// Deps are what the console needs. Admin (the admin API's handler) and
// Tokens are required.
type Deps struct {
	Admin  http.Handler
	Tokens Tokens
	Logger *slog.Logger
	Clock  clockwork.Clock // the real clock when nil
	// SessionTTL is how long a sign-in lasts (8h).
	SessionTTL time.Duration
	// PublicOrigin is scheme://host[:port] of a reverse proxy in front
	// (config console.public_origin): forms must come from it and an
	// https one makes the cookies Secure. Empty: the request's Host and TLS.
	PublicOrigin string
	// Metrics counts refused sign-ins (none when nil).
	Metrics *Metrics
}

// Console serves the pages; create with New.
type Console struct {
	// adminHTTP calls the admin API's handler in-process.
	adminHTTP *http.Client
	tokens    Tokens
	log       *slog.Logger
	now       func() time.Time
	ttl       time.Duration
	sessions  *sessions
	origin    *url.URL // the public origin; nil when not configured
	mux       *http.ServeMux
	metrics   *Metrics
	signIns   signInLimit // sign-in attempts per source address
}

// New builds the console.
func New(d Deps) *Console {
	c := &Console{adminHTTP: &http.Client{Transport: adminclient.InProcess(d.Admin, inProcessAddr)}, tokens: d.Tokens, log: d.Logger, ttl: d.SessionTTL, sessions: newSessions(),
		metrics: d.Metrics}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if d.Clock == nil {
		d.Clock = clockwork.NewRealClock()
	}
	c.now = d.Clock.Now
	if d.PublicOrigin != "" {
		c.origin, _ = url.Parse(d.PublicOrigin) // validated by the config
	}
	if c.ttl == 0 {
		c.ttl = 8 * time.Hour
	}
	c.mux = http.NewServeMux()
	c.routes()
	return c
}

// ServeHTTP serves /console/... with the security headers on every answer.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "+
		"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make browsers send "Origin: null" on forms
	h.Set("Cache-Control", "no-store")
	c.mux.ServeHTTP(w, r)
}

// routes registers the pages: public ones (sign in, static files) and
// the rest behind a session; POSTs also check the CSRF token.
func (c *Console) routes() {
	m := c.mux
	m.Handle("GET /console/static/", http.StripPrefix("/console/", http.FileServerFS(staticFS)))
	m.HandleFunc("GET /console/login", c.loginForm)
	m.HandleFunc("POST /console/login", c.login)
	m.Handle("POST /console/logout", c.post(c.logout, false))
	m.Handle("GET /console/{$}", c.page(func(w http.ResponseWriter, r *http.Request, _ *session) {
		http.Redirect(w, r, "/console/fleet", http.StatusSeeOther)
	}))
	m.Handle("GET /console/fleet", c.page(c.fleet))
	m.Handle("GET /console/nodes/{id}", c.page(c.node))
	m.Handle("GET /console/runs/{id}", c.page(c.run))
	m.Handle("GET /console/nodes/{id}/certificates", c.page(c.nodeCertificates))
	m.Handle("GET /console/batches", c.page(c.batches))
	m.Handle("GET /console/batches/{id}", c.page(c.batch))
	m.Handle("GET /console/drift", c.page(c.drift))
	m.Handle("GET /console/decommissions", c.page(c.decommissions))
	m.Handle("GET /console/audit", c.page(c.audit))
	c.actionRoutes()
}
