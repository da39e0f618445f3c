package maas

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// statusError maps a MAAS error answer to a lifecycle.Error carrying
// MAAS's text (with any part of the API key removed).
func (c *Client) statusError(op string, status int, body []byte) error {
	text := c.key.redact(strings.TrimSpace(string(body)))
	if len(text) > 2048 {
		text = text[:2048] + "..."
	}
	e := &lifecycle.Error{Op: "maas: " + op, Msg: fmt.Sprintf("MAAS %d: %s", status, text)}
	switch {
	case status == http.StatusBadRequest:
		e.Code = lifecycle.CodeInvalid
		e.Field, e.Msg = fieldErrors(body, e.Msg, c.key)
	case status == http.StatusUnauthorized:
		e.Code = lifecycle.CodeUnauthorized
	case status == http.StatusForbidden:
		e.Code = lifecycle.CodeForbidden
	case status == http.StatusNotFound:
		e.Code = lifecycle.CodeNotFound
	case status == http.StatusConflict:
		e.Code, e.Msg = lifecycle.CodeConflict, text
	case status >= 500:
		e.Code = lifecycle.CodeUnavailable
	default:
		e.Code = lifecycle.CodeInternal
	}
	return e
}

// fieldErrors reads MAAS's validation answer {"field": ["msg", ...]}: the
// first field (sorted) becomes Field, and Msg lists every field.
func fieldErrors(body []byte, fallback string, k apiKey) (string, string) {
	var fields map[string][]string
	if json.Unmarshal(body, &fields) != nil || len(fields) == 0 {
		return "", fallback
	}
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, n+": "+strings.Join(fields[n], " "))
	}
	return names[0], k.redact(strings.Join(parts, "; "))
}

// transportError maps a failure to reach MAAS (refused, reset, timeout,
// deadline) to unavailable. The URL carries no secret; it is kept.
func (c *Client) transportError(op string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = fmt.Errorf("%s %s: %w", ue.Op, redactURL(ue.URL), ue.Err)
	}
	if s := c.key.redact(err.Error()); s != err.Error() {
		err = errors.New(s)
	}
	return &lifecycle.Error{Code: lifecycle.CodeUnavailable, Op: "maas: " + op, Msg: "MAAS unreachable", Err: err}
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}
