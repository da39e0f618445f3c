package lifecycle

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodeThroughWrapping(t *testing.T) {
	base := Invalid("api.createSite", "name", "must not be empty")
	wrapped := fmt.Errorf("outer: %w", base)
	if got := ErrorCode(wrapped); got != CodeInvalid {
		t.Fatalf("ErrorCode = %q, want invalid", got)
	}
	if got := ErrorField(wrapped); got != "name" {
		t.Fatalf("ErrorField = %q, want name", got)
	}
	if got := ErrorCode(errors.New("plain")); got != CodeInternal {
		t.Fatalf("plain error code = %q, want internal", got)
	}
	if ErrorCode(nil) != "" {
		t.Fatal("nil error must have no code")
	}
}

func TestErrorMessageAndRetryable(t *testing.T) {
	cause := errors.New("connection refused")
	err := Wrap(CodeUnavailable, "maas: version", cause)
	if err.Error() != "maas: version: connection refused" {
		t.Fatalf("message = %q", err.Error())
	}
	if !errors.Is(err, cause) {
		t.Fatal("cause not reachable through Unwrap")
	}
	if !IsRetryable(err) || IsRetryable(Errorf(CodeConflict, "x", "y")) {
		t.Fatal("only unavailable is retryable")
	}
	if Wrap(CodeInternal, "op", nil) != nil {
		t.Fatal("Wrap(nil) must be nil")
	}
}
