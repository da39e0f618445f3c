package maassim

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is an HTTP error answered the way MAAS answers it: a text body,
// or for validation errors a JSON object of field -> messages.
type apiError struct {
	status int
	text   string
	fields map[string][]string
}

func (e *apiError) Error() string {
	if e.fields != nil {
		b, _ := json.Marshal(e.fields)
		return fmt.Sprintf("%d %s", e.status, b)
	}
	return fmt.Sprintf("%d %s", e.status, e.text)
}

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, text: fmt.Sprintf(format, args...)}
}

// conflict is MAAS's NodeStateViolation: 409 with a text body.
func conflict(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, format, args...)
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, format, args...)
}

// invalid is a form validation error: 400 {"field": ["msg"]}.
func invalid(field, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest,
		fields: map[string][]string{field: {fmt.Sprintf(format, args...)}}}
}

func notFound(what string) *apiError {
	return errorf(http.StatusNotFound, "No %s matches the given query.", what)
}

func forbidden(text string) *apiError { return errorf(http.StatusForbidden, "%s", text) }

func unavailable(format string, args ...any) *apiError {
	return errorf(http.StatusServiceUnavailable, format, args...)
}

func (e *apiError) write(w http.ResponseWriter) {
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `OAuth realm="OAuth"`)
	}
	if e.fields != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(e.status)
		_ = json.NewEncoder(w).Encode(e.fields)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(e.status)
	_, _ = w.Write([]byte(e.text))
}
