package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// errNoToken: the agent holds no usable identity and finds no enrollment
// token it has not already spent or had refused.
var errNoToken = errors.New("no identity and no new enrollment token; waiting for an operator to place one")

// maxRetryAfter bounds how long a Retry-After answer can park the loop.
const maxRetryAfter = time.Hour

// loggedError is an error the agent already logged, once, where it knew
// why; the loop backs off without logging it again at every retry.
type loggedError struct{ error }

func (e loggedError) Unwrap() error { return e.error }

// certRefused reports whether err is the daemon refusing the client
// certificate on an authenticated route: superseded, revoked, or unknown.
func certRefused(err error) bool {
	var p *wire.Problem
	return errors.As(err, &p) && (p.Status == 401 || p.Status == 403)
}

// refuse records the daemon's refusal of the certificate. Every refusal
// counts; each distinct one (status and detail) is logged once, with what
// the operator must do. The identity is kept: a new enrollment token
// replaces it, and a refusal the daemon lifts needs nothing.
func (a *Agent) refuse(err error) error {
	a.stats.refusals.Add(1)
	a.o.Observer.Refused(metrics.RefusedCertificate)
	a.stats.refused.Store(true)
	if key := err.Error(); key != a.refusal {
		a.refusal = key
		a.log.Error("the daemon refuses this agent's certificate; it polls on with backoff until an operator places a new enrollment token",
			"err", err, "serial", a.serial(), "token_path", a.o.Config.EnrollmentTokenPath)
	}
	return loggedError{fmt.Errorf("certificate refused: %w", err)}
}

// accepted ends a refusal: the daemon took the certificate again.
func (a *Agent) accepted() {
	if a.refusal == "" {
		return
	}
	a.refusal = ""
	a.stats.refused.Store(false)
	a.log.Info("the daemon accepts this agent's certificate again", "serial", a.serial())
}

// freshToken returns the enrollment token file's content, unless the file
// is missing or empty or holds a token this agent already spent or had
// refused (that one waits for the operator to place another).
func (a *Agent) freshToken() (string, bool, error) {
	b, err := os.ReadFile(a.tokenPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("enroll: read the enrollment token: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" || tokenDigest(tok) == a.spentToken {
		return "", false, nil
	}
	return tok, true, nil
}

// noToken reports, once per wait, that enrolling needs a token.
func (a *Agent) noToken() error {
	if a.refusal != errNoToken.Error() {
		a.refusal = errNoToken.Error()
		a.log.Error("the agent cannot enroll: no new enrollment token", "token_path", a.o.Config.EnrollmentTokenPath)
	}
	return loggedError{errNoToken}
}

// tokenRefused marks tok spent after the daemon refused it for good
// (unknown, used, expired, another node's) and logs that once.
func (a *Agent) tokenRefused(tok string, err error) error {
	a.spentToken = tokenDigest(tok)
	a.stats.enrollRefusals.Add(1)
	a.o.Observer.Refused(metrics.RefusedEnrollmentToken)
	a.log.Error("the daemon refused the enrollment token; place a new one", "err", err,
		"token_path", a.o.Config.EnrollmentTokenPath)
	return loggedError{fmt.Errorf("enroll: %w", err)}
}

// dropToken removes the token file after a successful enrollment, so a
// spent token does not linger on the host.
func (a *Agent) dropToken(tok string) {
	a.spentToken = tokenDigest(tok)
	if err := os.Remove(a.tokenPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		a.log.Warn("could not remove the spent enrollment token", "err", err, "token_path", a.o.Config.EnrollmentTokenPath)
	}
}

func (a *Agent) tokenPath() string { return a.o.Root.Path(a.o.Config.EnrollmentTokenPath) }

func tokenDigest(tok string) string { return wire.TokenHash(tok) }

// retryAfter is how long the daemon asked the agent to wait (429 and
// 503 with Retry-After), capped; zero when it did not.
func retryAfter(err error) time.Duration {
	var p *wire.Problem
	if !errors.As(err, &p) || (p.Status != 429 && p.Status != 503) {
		return 0
	}
	return min(p.RetryAfter, maxRetryAfter)
}

// permanentRefusal: a 4xx other than 429, which the same request will get
// again.
func permanentRefusal(err error) bool {
	var p *wire.Problem
	return errors.As(err, &p) && p.Status >= 400 && p.Status < 500 && p.Status != 429
}
