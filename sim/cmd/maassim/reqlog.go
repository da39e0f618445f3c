package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Request is one line of the request log: a MAAS API call and its answer.
type Request struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Op     string    `json:"op,omitempty"`
	Status int       `json:"status"`
	// UserAgent tells the callers apart (maas-sidecar sends its daemon
	// name in it).
	UserAgent string `json:"user_agent,omitempty"`
}

// requestLog appends every MAAS API call (not the /_sim/ control routes)
// to a file as one JSON line, as soon as the simulator has answered it:
// the oracle tests count side effects with.
type requestLog struct {
	mu  sync.Mutex
	enc *json.Encoder
	f   *os.File
}

func openRequestLog(path string) (*requestLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &requestLog{enc: json.NewEncoder(f), f: f}, nil
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/MAAS/api/") {
			h.ServeHTTP(w, r)
			return
		}
		op := r.URL.Query().Get("op")
		if op == "" && !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
			if err := r.ParseForm(); err != nil {
				// A body cut short is refused as MAAS refuses it: the
				// simulator's own ParseForm would take the partial form.
				http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
				return
			}
			op = r.PostForm.Get("op")
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		if op == "" && r.MultipartForm != nil && len(r.MultipartForm.Value["op"]) > 0 {
			op = r.MultipartForm.Value["op"][0]
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		_ = l.enc.Encode(Request{Time: time.Now().UTC(), Method: r.Method, Path: r.URL.Path, Op: op, Status: rec.status,
			UserAgent: r.UserAgent()})
	})
}

func (l *requestLog) close() error { return l.f.Close() }

// statusRecorder remembers the status code and writes the body through.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
