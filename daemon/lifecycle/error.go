package lifecycle

import (
	"errors"
	"fmt"
)

// Code classifies an Error. The admin API maps each code to one HTTP status.
type Code string

// Error codes. CodeUnavailable is the only retryable one.
const (
	CodeInvalid      Code = "invalid"
	CodeNotFound     Code = "not_found"
	CodeConflict     Code = "conflict"
	CodeUnauthorized Code = "unauthorized"
	CodeForbidden    Code = "forbidden"
	CodeUnavailable  Code = "unavailable"
	CodeInternal     Code = "internal"
)

// Codes lists every error code, for metrics that register their error
// label values at zero.
var Codes = []Code{CodeInvalid, CodeNotFound, CodeConflict, CodeUnauthorized, CodeForbidden, CodeUnavailable, CodeInternal}

// Error is the one error type of the project. Op names the operation that
// failed ("store.TransitionNode"), Msg is safe to show an operator, Field
// names the offending input field for CodeInvalid, and Err is the cause.
// No field may ever hold a secret value.
type Error struct {
	Code  Code
	Op    string
	Msg   string
	Field string
	Err   error
}

func (e *Error) Error() string {
	s := e.Op
	if e.Msg != "" {
		s = join(s, e.Msg)
	}
	if e.Err != nil {
		s = join(s, e.Err.Error())
	}
	if s == "" {
		s = string(e.Code)
	}
	return s
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + ": " + b
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted operator-facing message.
func Errorf(code Code, op, format string, args ...any) *Error {
	return &Error{Code: code, Op: op, Msg: fmt.Sprintf(format, args...)}
}

// Wrap wraps err under code and op. It returns nil when err is nil.
func Wrap(code Code, op string, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Op: op, Err: err}
}

// Invalid reports bad input in the named field.
func Invalid(op, field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalid, Op: op, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first Error in err's chain, CodeInternal
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Code != "" {
		return e.Code
	}
	return CodeInternal
}

// ErrorField returns the offending field of the first invalid Error in err's chain.
func ErrorField(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// IsRetryable reports whether err is worth retrying unchanged.
func IsRetryable(err error) bool { return ErrorCode(err) == CodeUnavailable }
