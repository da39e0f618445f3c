package maassim

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// call is one API request being served, under Sim.mu.
type call struct {
	method, op string
	faultKey   string // the OpFault that applies (faultKey)
	params     url.Values
	segs       []string // path segments after /MAAS/api/2.0/
	who        principal
	intents    []powerIntent
}

// Results a handler may return besides a JSON-encodable value.
type (
	textResult string
	noContent  struct{}
	jsonNull   struct{}
	// deferredResult runs after the lock is released (BMC queries).
	deferredResult func(ctx context.Context) (any, *apiError)
)

func deferred(fn func(ctx context.Context) (any, *apiError)) deferredResult { return fn }

type handlerFunc func(c *call) (any, *apiError)

// ServeHTTP serves /MAAS/... as MAAS does and /_sim/... control routes.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-MAAS-API-Hash", "sim-3.6")
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/_sim/"):
		s.serveControl(w, r)
	case p == "/MAAS/api/version/":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("2.0"))
	case strings.HasPrefix(p, "/MAAS/api/1.0/"):
		errorf(http.StatusGone, "The 1.0 API is no longer available. Please use API version 2.0.").write(w)
	case strings.HasPrefix(p, "/MAAS/metadata/"):
		s.serveMetadata(w, r)
	case strings.HasPrefix(p, apiRoot):
		s.serveAPI(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Sim) serveAPI(w http.ResponseWriter, r *http.Request) {
	c, res, aerr := s.parseCall(r)
	if aerr != nil {
		aerr.write(w)
		return
	}
	s.runLate(c.faultKey)
	if s.injectFault(w, r, c.faultKey) {
		return
	}
	s.dispatch(w, r, c, res)
}

// parseCall reads r into a call and finds its resource.
func (s *Sim) parseCall(r *http.Request) (*call, *resource, *apiError) {
	if err := parseParams(r); err != nil {
		return nil, nil, badRequest("Bad Request: %v", err)
	}
	c := &call{method: r.Method, params: r.URL.Query()}
	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		c.params = r.PostForm
	}
	path := strings.TrimPrefix(r.URL.Path, apiRoot)
	c.op = r.URL.Query().Get("op")
	if c.op == "" && r.PostForm != nil {
		c.op = r.PostForm.Get("op")
	}
	if i := strings.LastIndex(path, "/op-"); c.op == "" && i >= 0 && !strings.Contains(path[i+4:], "/") {
		c.op, path = path[i+4:], path[:i+1]
	}
	c.params.Del("op")
	c.segs = strings.Split(strings.Trim(path, "/"), "/")
	res := s.route(c.segs)
	if res == nil {
		return nil, nil, errorf(http.StatusNotFound, "Unknown API endpoint: %s.", r.URL.Path)
	}
	c.faultKey = s.faultKey(c, res.kind)
	return c, res, nil
}

// parseParams parses the query and a urlencoded or multipart body.
func parseParams(r *http.Request) error {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return err
		}
		return nil
	}
	return r.ParseForm()
}

func (s *Sim) dispatch(w http.ResponseWriter, r *http.Request, c *call, res *resource) {
	s.mu.Lock()
	c.intents = s.settleLocked()
	out, aerr := s.authorizeAndRun(r, c, res)
	var body []byte
	d, isDeferred := out.(deferredResult)
	if aerr == nil && !isDeferred {
		body, aerr = encode(out)
	}
	s.mu.Unlock()
	s.applyPower(r.Context(), c.intents)
	if aerr == nil && isDeferred {
		if out, aerr = d(r.Context()); aerr == nil {
			body, aerr = encode(out)
		}
	}
	if !s.holdAnswer(r.Context(), c.faultKey) {
		return
	}
	if aerr != nil {
		aerr.write(w)
		return
	}
	switch out.(type) {
	case noContent:
		w.WriteHeader(http.StatusNoContent)
	case textResult:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(body)
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

func encode(out any) ([]byte, *apiError) {
	switch v := out.(type) {
	case noContent:
		return nil, nil
	case textResult:
		return []byte(v), nil
	case jsonNull:
		return []byte("null"), nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "encode: %v", err)
	}
	return b, nil
}

func (s *Sim) authorizeAndRun(r *http.Request, c *call, res *resource) (any, *apiError) {
	if res.kind == "version" {
		return res.exports["GET "](c)
	}
	if r.Header.Get("Authorization") == "" {
		return nil, anonymous(c, res)
	}
	who, aerr := s.authenticateLocked(r)
	if aerr != nil {
		return nil, aerr
	}
	if who.machine != nil {
		return nil, forbidden("Machine tokens cannot use the REST API.")
	}
	c.who = who
	h, ok := res.exports[c.method+" "+c.op]
	if !ok {
		return nil, unrecognised(c)
	}
	return h(c)
}

func unrecognised(c *call) *apiError {
	op := c.op
	if op == "" {
		op = "None"
	}
	return badRequest("Unrecognised signature: method=%s op=%s", c.method, op)
}

// anonymous answers unsigned requests: machines/ and nodes/ have anonymous
// handlers that export almost nothing; everything else is 401.
func anonymous(c *call, res *resource) *apiError {
	if res.kind == "machines" {
		if c.op == "accept" {
			return errorf(http.StatusUnauthorized, "You must be logged in to accept machines.")
		}
		return unrecognised(c)
	}
	return errorf(http.StatusUnauthorized, "Authorization Error: Anonymous access denied.")
}
