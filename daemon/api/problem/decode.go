package problem

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// MaxBody is the largest request body the admin API reads.
const MaxBody = 1 << 20

// statusError is an HTTP-level failure that no lifecycle code names: a
// malformed body (400), one too large (413), a wrong method (405). It
// wraps a lifecycle.Error carrying the message and field.
type statusError struct {
	status int
	code   string
	err    *lifecycle.Error
	after  time.Duration // Retry-After, for 429
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// Malformed reports a body that cannot be read as the expected JSON; field
// names the offending member when it is known.
func Malformed(op, field, format string, args ...any) error {
	return &statusError{status: http.StatusBadRequest, code: "malformed", err: lifecycle.Invalid(op, field, format, args...)}
}

// MethodNotAllowed reports a known path asked with a method it lacks.
func MethodNotAllowed(op string) error {
	return &statusError{status: http.StatusMethodNotAllowed, code: "method_not_allowed",
		err: lifecycle.Errorf(lifecycle.CodeInvalid, op, "method not allowed on this path")}
}

// ReadBody reads at most MaxBody bytes of r's JSON body: one whose
// Content-Type is neither JSON (application/json, any +json type) nor
// absent (a body without one is read as JSON) is refused with 415.
func ReadBody(r *http.Request, op string) ([]byte, error) {
	if err := jsonContent(r, op); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, Malformed(op, "", "reading the body: %v", err)
	}
	if len(b) > MaxBody {
		return nil, &statusError{status: http.StatusRequestEntityTooLarge, code: "too_large",
			err: lifecycle.Invalid(op, "", "the body is larger than %d bytes", MaxBody)}
	}
	return b, nil
}

// Decode reads r's body as one JSON object into v (see Unmarshal).
func Decode(r *http.Request, op string, v any) error {
	b, err := ReadBody(r, op)
	if err != nil {
		return err
	}
	return Unmarshal(b, op, v)
}

// Unmarshal decodes one JSON object from b onto v
// (lifecycle.DecodeStrict): members present in b overwrite v's fields,
// others keep their value, so a PATCH can decode onto the current record.
// Unknown members, wrong types, trailing data and anything but an object
// are malformed.
func Unmarshal(b []byte, op string, v any) error {
	return MalformedFrom(lifecycle.DecodeStrict(b, op, v))
}

// MalformedFrom answers an invalid error from a body decoder or validator
// as a malformed request (400) with the same message and field; any other
// error, and nil, is returned as it is.
func MalformedFrom(err error) error {
	var le *lifecycle.Error
	if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || !errors.As(err, &le) {
		return err
	}
	return &statusError{status: http.StatusBadRequest, code: "malformed", err: le}
}

// Typed answers err (a lifecycle error, whose code picks the status) under
// its own problem code, so that a client tells it apart from other answers
// with that status. err is returned as it is when it is no lifecycle error.
func Typed(code string, err error) error {
	var le *lifecycle.Error
	if !errors.As(err, &le) {
		return err
	}
	return &statusError{status: Status(err), code: code, err: le}
}

// JSONBody refuses, with 415, a request that has a body (any route: the
// daemon's APIs read nothing but JSON) whose Content-Type names another
// media type than JSON; a body without Content-Type is read as JSON.
func JSONBody(r *http.Request, op string) error {
	if r.ContentLength == 0 {
		return nil
	}
	return jsonContent(r, op)
}

// jsonContent refuses a request whose Content-Type names another media
// type than JSON.
func jsonContent(r *http.Request, op string) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return nil
	}
	return &statusError{status: http.StatusUnsupportedMediaType, code: "unsupported_media_type",
		err: lifecycle.Invalid(op, "Content-Type", "the body must be application/json, not %q", ct)}
}
