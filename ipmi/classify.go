package ipmi

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// refusedPatterns mark a BMC that answered and refused the credentials. Such
// an error is never retried: repeated bad logins can lock the account.
var refusedPatterns = []string{
	"unable to establish ipmi v2 / rmcp+ session", // ipmitool, before the attempt timed out
	"rakp 2 hmac is invalid",
	"unauthorized name",
	"401 unauthorized",
	"failed to login",
}

// transientPatterns mark errors worth retrying: a busy or starting BMC, or
// a network that dropped the answer.
var transientPatterns = []string{
	"busy",
	"initialization in progress",
	"insufficient resources",
	"timeout",
	"timed out",
	"connection refused",
	"connection reset",
	"no route to host",
}

// classify turns a failed attempt into a *lifecycle.Error. An attempt whose
// context ended means the BMC did not answer in time: unavailable.
func classify(attemptCtx context.Context, op, bmc string, err error) error {
	code, msg := lifecycle.CodeInternal, "BMC "+bmc+" failed"
	text := strings.ToLower(err.Error())
	switch {
	case attemptCtx.Err() != nil:
		code, msg = lifecycle.CodeUnavailable, "BMC "+bmc+" did not answer in time"
	case containsAny(text, refusedPatterns):
		code, msg = lifecycle.CodeUnauthorized, "BMC "+bmc+" refused the credentials"
	case containsAny(text, transientPatterns):
		code, msg = lifecycle.CodeUnavailable, "BMC "+bmc+" is busy or unreachable"
	}
	return &lifecycle.Error{Code: code, Op: op, Msg: msg, Err: oneLine{err}}
}

// oneLine shows a multi-line provider error (bmclib joins provider errors
// over several lines) on one line, so it fits a log record.
type oneLine struct{ err error }

func (e oneLine) Error() string { return strings.Join(strings.Fields(e.err.Error()), " ") }
func (e oneLine) Unwrap() error { return e.err }

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
