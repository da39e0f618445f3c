package agentapi

import (
	"encoding/json"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// statusOf is the one code-to-status table of the agent API.
var statusOf = map[lifecycle.Code]int{
	lifecycle.CodeInvalid:      http.StatusBadRequest,
	lifecycle.CodeUnauthorized: http.StatusUnauthorized,
	lifecycle.CodeForbidden:    http.StatusForbidden,
	lifecycle.CodeNotFound:     http.StatusNotFound,
	lifecycle.CodeConflict:     http.StatusConflict,
	lifecycle.CodeUnavailable:  http.StatusServiceUnavailable,
	lifecycle.CodeInternal:     http.StatusInternalServerError,
}

// writeProblem answers err as application/problem+json. Internal errors
// are not detailed to the caller.
func writeProblem(w http.ResponseWriter, err error) {
	code := lifecycle.ErrorCode(err)
	status := statusOf[code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	p := wire.Problem{Title: http.StatusText(status), Status: status, Code: string(code), Field: lifecycle.ErrorField(err)}
	if code != lifecycle.CodeInternal {
		p.Detail = err.Error()
	}
	w.Header().Set("Content-Type", wire.ProblemContentType)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(p)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// decode reads a JSON body of at most 64 KiB into v.
func decode(r *http.Request, op string, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return lifecycle.Invalid(op, "body", "malformed JSON body")
	}
	return nil
}
