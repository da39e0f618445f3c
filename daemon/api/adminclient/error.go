package adminclient

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// APIError is a problem answer of the admin API (RFC 9457).
type APIError struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Field  string `json:"field"`
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
	if e.Field != "" {
		s += " (field " + e.Field + ")"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// problemOf is the APIError of a refused answer: its problem body when it
// is JSON, its status always, and the status's text when it has no title.
func problemOf(resp *http.Response, raw []byte) *APIError {
	ae := &APIError{}
	if strings.Contains(resp.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(raw, ae)
	}
	ae.Status = resp.StatusCode
	if ae.Title == "" {
		ae.Title = http.StatusText(ae.Status)
	}
	return ae
}
