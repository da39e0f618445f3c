package agentapi

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
)

// maxBody bounds an agent request body: enrollments and results are small.
const maxBody = 64 << 10

// writeProblem answers err as application/problem+json through the one
// code-to-status table the daemon's HTTP APIs share (daemon/api/problem).
func writeProblem(w http.ResponseWriter, err error) { problem.Write(w, err) }

func writeJSON(w http.ResponseWriter, status int, v any) { problem.WriteJSON(w, status, v) }

// decode reads a JSON body of at most 64 KiB into v; a body that is not
// the expected JSON is a 400 naming the offending member.
func decode(r *http.Request, op string, v any) error {
	r.Body = http.MaxBytesReader(nil, r.Body, maxBody)
	return problem.Decode(r, op, v)
}

// jsonOnly answers 415 to a request whose body is declared as anything
// but JSON, before any route reads it or asks for a certificate.
func jsonOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := problem.JSONBody(r, "agentapi"); err != nil {
			writeProblem(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
