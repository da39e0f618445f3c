package fakehost

import (
	"encoding/json"
	"errors"
	"net/http"
)

// ErrNotBooted is a Roots answer for a hostname with no booted machine.
var ErrNotBooted = errors.New("no booted machine of that hostname")

// Roots runs f on the root of the booted machine hostname while no
// reboot replaces it, or returns ErrNotBooted.
type Roots func(hostname string, f func(root string) error) error

// Routes serves the booted machines' residue routes in front of next:
//
//	POST /_sim/booted/{hostname}/residue  Residue -> Injected
//	GET  /_sim/booted/{hostname}/residue  -> {"clean": bool, Report...}
//
// The POST writes a tenant's residue into the machine's root (a user, a
// process, mounts, GPU memory in use, scratch files, a GPU that refuses
// reset, an Xid in the kernel log); the GET reports what residue is
// left, judged independently of the agent. Both answer 404 for a machine
// that has not booted and 422 for residue that cannot be written.
func Routes(roots Roots, next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_sim/booted/{hostname}/residue", func(w http.ResponseWriter, r *http.Request) {
		var res Residue
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&res); err != nil {
			http.Error(w, "residue: "+err.Error(), http.StatusBadRequest)
			return
		}
		var in Injected
		err := roots(r.PathValue("hostname"), func(root string) (err error) {
			in, err = Inject(root, res)
			return err
		})
		reply(w, in, err)
	})
	mux.HandleFunc("GET /_sim/booted/{hostname}/residue", func(w http.ResponseWriter, r *http.Request) {
		var out struct {
			Clean bool `json:"clean"`
			Report
		}
		err := roots(r.PathValue("hostname"), func(root string) (err error) {
			out.Report, err = Inspect(root)
			out.Clean = out.Report.Clean()
			return err
		})
		reply(w, out, err)
	})
	mux.Handle("/", next)
	return mux
}

func reply(w http.ResponseWriter, v any, err error) {
	switch {
	case errors.Is(err, ErrNotBooted):
		http.Error(w, err.Error(), http.StatusNotFound)
	case err != nil:
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	default:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
}
