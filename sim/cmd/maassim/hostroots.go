package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// hostRoutes serves the booted machines' residue routes in front of next:
//
//	POST /_sim/booted/{hostname}/residue  fakehost.Residue -> fakehost.Injected
//	GET  /_sim/booted/{hostname}/residue  -> {"clean": bool, fakehost.Report...}
//
// The POST writes a tenant's residue into the machine's root (a user, a
// process, mounts, GPU memory in use, scratch files, a GPU that refuses
// reset); the GET reports what residue is left, judged independently of
// the agent. Both answer 404 for a machine that has not booted.
func hostRoutes(a *agents, next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_sim/booted/{hostname}/residue", func(w http.ResponseWriter, r *http.Request) {
		var res fakehost.Residue
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&res); err != nil {
			http.Error(w, "residue: "+err.Error(), http.StatusBadRequest)
			return
		}
		var in fakehost.Injected
		err := a.withRoot(r.PathValue("hostname"), func(root string) (err error) {
			in, err = fakehost.Inject(root, res)
			return err
		})
		reply(w, in, err)
	})
	mux.HandleFunc("GET /_sim/booted/{hostname}/residue", func(w http.ResponseWriter, r *http.Request) {
		var out struct {
			Clean bool `json:"clean"`
			fakehost.Report
		}
		err := a.withRoot(r.PathValue("hostname"), func(root string) (err error) {
			out.Report, err = fakehost.Inspect(root)
			out.Clean = out.Report.Clean()
			return err
		})
		reply(w, out, err)
	})
	mux.Handle("/", next)
	return mux
}

// errNotBooted answers 404.
var errNotBooted = errors.New("no booted machine of that hostname")

// withRoot runs f on a booted machine's root while no reboot replaces it.
func (a *agents) withRoot(hostname string, f func(root string) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.procs[hostname] == nil || filepath.Base(hostname) != hostname {
		return errNotBooted
	}
	return f(filepath.Join(a.dir, hostname))
}

func reply(w http.ResponseWriter, v any, err error) {
	switch {
	case err == errNotBooted:
		http.Error(w, err.Error(), http.StatusNotFound)
	case err != nil:
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	default:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
}
