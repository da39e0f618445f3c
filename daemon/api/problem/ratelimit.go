package problem

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TooManyRequests reports a client over its rate; Write answers 429 with a
// Retry-After of after, in whole seconds rounded up.
func TooManyRequests(op string, after time.Duration) error {
	return &statusError{status: http.StatusTooManyRequests, code: "rate_limited", after: after,
		err: lifecycle.Errorf(lifecycle.CodeUnavailable, op, "too many requests from this address; retry later")}
}

// RetryAfter is the Retry-After of a 503 that names no wait of its own:
// what is unavailable (the store, Vault, a full disk, a daemon starting)
// is worth asking again after a few seconds.
const RetryAfter = 5 * time.Second

// retryAfter returns the Retry-After value for err answered with status,
// or "": every 503 carries one.
func retryAfter(err error, status int) string {
	var se *statusError
	after := time.Duration(0)
	if errors.As(err, &se) {
		after = se.after
	}
	if after <= 0 && status == http.StatusServiceUnavailable {
		after = RetryAfter
	}
	if after <= 0 {
		return ""
	}
	return Seconds(after)
}

// hasOwnWait reports whether err names its own wait (a 429's).
func hasOwnWait(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.after > 0
}

// Seconds is d as a Retry-After value: whole seconds, rounded up, at least 1.
func Seconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}
