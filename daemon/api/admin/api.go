package admin

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// API is the admin API. Create with New, mount with Register.
type API struct {
	store   Store
	runner  Runner
	secrets Secrets
	prober  Prober
	pgProve NotifyProver
	recon   Reconciliation
	hooks   Webhooks
	enroll  Enrollment
	boot    Bootstrap
	// agentURL is where manual hosts fetch their bootstrap scripts.
	agentURL string
	cluster  Cluster
	log      *slog.Logger
	now      func() time.Time
	rand     io.Reader
	probeTO  time.Duration
	snap     Backup
	snapFile string
	snapExt  string
	skus     lifecycle.Catalog
	evidence Evidence
	clock    clockwork.Clock
	health   Health
}

// New returns the admin API over c's dependencies.
func New(c Config) *API {
	c = c.withDefaults()
	return &API{store: c.Store, runner: c.Runner, secrets: c.Secrets, prober: c.Prober, pgProve: c.NotifyProver, recon: c.Reconciliation, hooks: c.Webhooks, enroll: c.Enrollment,
		boot: c.Bootstrap, agentURL: strings.TrimSuffix(c.AgentURL, "/"), cluster: c.Cluster,
		log: c.Logger.With("component", "admin_api"), now: c.Clock.Now,
		rand: &lockedReader{r: c.Rand}, probeTO: c.ProbeTimeout, snap: c.Backup, snapExt: c.BackupExt, snapFile: c.BackupStore,
		skus: c.SKUs, evidence: c.Evidence, clock: c.Clock, health: c.Health}
}

// call is one authenticated request as a handler sees it.
type call struct {
	who       principal
	requestID string
	vars      map[string]string
}

// handler answers a request with a status and a JSON body, or an error
// that becomes a problem answer. A nil body with 204 writes nothing.
type handler func(r *http.Request, c *call) (int, any, error)

// route is one operation of the admin API.
type route struct {
	method string
	path   string
	role   lifecycle.Role
	h      handler
}

// Register adds every admin route and the OpenAPI document to r.
func (a *API) Register(r *mux.Router) {
	for _, rt := range a.routes() {
		r.Handle(rt.path, a.wrap(rt)).Methods(rt.method)
	}
	r.HandleFunc(OpenAPIPath, serveOpenAPI).Methods(http.MethodGet)
	r.HandleFunc(PublicKeysPath, a.publicEvidenceKeys).Methods(http.MethodGet)
	r.Handle(WebhookPath, http.HandlerFunc(a.webhook)).Methods(http.MethodPost)
}

// Handler returns a router serving only the admin API.
func (a *API) Handler() http.Handler {
	r := mux.NewRouter()
	a.Register(r)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		problem.Write(w, lifecycle.Errorf(lifecycle.CodeNotFound, "admin", "no such route"))
	})
	r.MethodNotAllowedHandler = problem.NotAllowed(r, "admin")
	return r
}

type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
