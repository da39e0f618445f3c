package cli

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

// Exit codes; see the package comment.
const (
	ExitOK       = 0
	ExitFail     = 1
	ExitUsage    = 2
	ExitAuth     = 3
	ExitNotFound = 4
	ExitConflict = 5
	ExitInvalid  = 6
	ExitOutcome  = 7
)

// usageError is a wrong command line or input file: nothing was sent.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// outcomeError is a command that ran but did not succeed.
type outcomeError struct{ msg string }

func (e outcomeError) Error() string { return e.msg }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var ue usageError
	var oe outcomeError
	var ae *adminclient.APIError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &oe):
		return ExitOutcome
	case errors.As(err, &ae):
		return apiExit(ae.Status)
	}
	return ExitFail
}

func apiExit(status int) int {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return ExitAuth
	case http.StatusNotFound:
		return ExitNotFound
	case http.StatusConflict:
		return ExitConflict
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return ExitInvalid
	}
	return ExitFail
}
