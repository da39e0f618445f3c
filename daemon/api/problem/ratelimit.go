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

// retryAfter returns the Retry-After value for err, or "".
func retryAfter(err error) string {
	var se *statusError
	if !errors.As(err, &se) || se.after <= 0 {
		return ""
	}
	return strconv.Itoa(max(1, int(math.Ceil(se.after.Seconds()))))
}
