package secrets

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/hashicorp/vault/api"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// kvErr turns a Vault client error into a *lifecycle.Error for the secret
// at path. Vault never echoes secret values in its errors, and neither do
// we: the message holds the path, the status and Vault's reason.
func kvErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	code, reason := classifyVault(err)
	if errors.Is(err, api.ErrSecretNotFound) {
		code, reason = lifecycle.CodeNotFound, "no secret there"
	}
	var re *api.ResponseError
	if errors.As(err, &re) {
		err = respError{re}
	}
	return &lifecycle.Error{Code: code, Op: "secrets." + op, Msg: "vault " + op + " " + path + ": " + reason, Err: err}
}

// classifyVault maps an error to a code and a short reason.
func classifyVault(err error) (lifecycle.Code, string) {
	var re *api.ResponseError
	if errors.As(err, &re) {
		switch s := re.StatusCode; {
		case s == 400:
			return lifecycle.CodeInvalid, "bad request"
		case s == 401:
			return lifecycle.CodeUnauthorized, "not authenticated"
		case s == 403:
			return lifecycle.CodeForbidden, "permission denied"
		case s == 404:
			return lifecycle.CodeNotFound, "not found"
		case s == 503 && containsSealed(re.Errors):
			return lifecycle.CodeUnavailable, "vault is sealed"
		case s == 412 || s == 429 || s >= 500:
			return lifecycle.CodeUnavailable, "vault cannot serve now"
		}
		return lifecycle.CodeInternal, "unexpected response"
	}
	var cve *tls.CertificateVerificationError
	if errors.As(err, &cve) {
		return lifecycle.CodeInternal, "vault's certificate is not trusted (check the CA file)"
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return lifecycle.CodeUnavailable, "vault unreachable"
	}
	return lifecycle.CodeInternal, "unexpected error"
}

// isSealed reports whether err is Vault answering that it is sealed.
func isSealed(err error) bool {
	var re *api.ResponseError
	return errors.As(err, &re) && re.StatusCode == 503 && containsSealed(re.Errors)
}

func containsSealed(errs []string) bool {
	for _, e := range errs {
		if strings.Contains(strings.ToLower(e), "sealed") {
			return true
		}
	}
	return false
}

// respError shows a Vault error response on one line: status and reasons.
type respError struct{ re *api.ResponseError }

func (e respError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.re.StatusCode, strings.Join(strings.Fields(strings.Join(e.re.Errors, "; ")), " "))
}

func (e respError) Unwrap() error { return e.re }
