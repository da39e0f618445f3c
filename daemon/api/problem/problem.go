package problem

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ContentType is the media type of a problem answer.
const ContentType = "application/problem+json"

// Problem is the body of an error answer. Field names the offending input
// for 400 and 422 answers.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code"`
	Field  string `json:"field,omitempty"`
}

// statusOf is the one code-to-status table of the admin API: invalid is a
// semantic or field error (422); a body that is not the expected JSON is
// reported by Malformed (400).
var statusOf = map[lifecycle.Code]int{
	lifecycle.CodeInvalid:      http.StatusUnprocessableEntity,
	lifecycle.CodeNotFound:     http.StatusNotFound,
	lifecycle.CodeConflict:     http.StatusConflict,
	lifecycle.CodeUnauthorized: http.StatusUnauthorized,
	lifecycle.CodeForbidden:    http.StatusForbidden,
	lifecycle.CodeUnavailable:  http.StatusServiceUnavailable,
	lifecycle.CodeInternal:     http.StatusInternalServerError,
}

// Status returns the HTTP status that err is answered with.
func Status(err error) int {
	var se *statusError
	if errors.As(err, &se) {
		return se.status
	}
	if s, ok := statusOf[lifecycle.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// From builds the problem that answers err. Internal errors are not
// detailed: their text may name files or records the caller has no use for.
func From(err error) Problem {
	status := Status(err)
	code := string(lifecycle.ErrorCode(err))
	var se *statusError
	if errors.As(err, &se) {
		code = se.code
	} else if errors.Is(err, lifecycle.ErrNoSpace) {
		code = "no_space"
	}
	p := Problem{Type: "urn:maas-sidecar:problem:" + code, Title: http.StatusText(status),
		Status: status, Code: code, Field: lifecycle.ErrorField(err)}
	if status != http.StatusInternalServerError {
		p.Detail = err.Error()
	}
	return p
}

// Write answers err as application/problem+json.
func Write(w http.ResponseWriter, err error) {
	p := From(err)
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Cache-Control", "no-store")
	if ra := retryAfter(err, p.Status); ra != "" && (hasOwnWait(err) || w.Header().Get("Retry-After") == "") {
		w.Header().Set("Retry-After", ra)
	}
	if p.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="maas-sidecar"`)
	}
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// WriteJSON answers v as application/json with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
