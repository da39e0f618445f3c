package ipmi

import (
	"context"
	"errors"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		err      string
		timedOut bool
		want     lifecycle.Code
	}{
		{"ipmitool session refused", "provider: ipmitool: Error: Unable to establish IPMI v2 / RMCP+ session: exit status 1", false, lifecycle.CodeUnauthorized},
		{"session refused after the attempt timed out", "Error: Unable to establish IPMI v2 / RMCP+ session", true, lifecycle.CodeUnavailable},
		{"redfish 401", "provider: gofish: 401 Unauthorized", false, lifecycle.CodeUnauthorized},
		{"node busy", "Set Chassis Power Control to Up/On failed: Node busy", false, lifecycle.CodeUnavailable},
		{"bmc starting", "BMC initialization in progress", false, lifecycle.CodeUnavailable},
		{"no session slot", "Insufficient resources for session", false, lifecycle.CodeUnavailable},
		{"redfish refused", "dial tcp 10.0.0.1:443: connect: connection refused", false, lifecycle.CodeUnavailable},
		{"deadline", "context deadline exceeded", true, lifecycle.CodeUnavailable},
		{"invalid field", "Set Boot Device to pxe failed: Invalid data field in request", false, lifecycle.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if tt.timedOut {
				cancel()
			}
			defer cancel()
			err := classify(ctx, "ipmi.test", "10.0.0.1:623", errors.New(tt.err))
			if got := lifecycle.ErrorCode(err); got != tt.want {
				t.Fatalf("code = %q, want %q (%v)", got, tt.want, err)
			}
		})
	}
}

func TestClassifiedErrorIsOneLineAndUnwraps(t *testing.T) {
	cause := errors.New("2 errors occurred:\n\t* provider: ipmitool: busy\n\t* no Opener implementations found\n")
	err := classify(context.Background(), "ipmi.test", "h:623", cause)
	if !errors.Is(err, cause) {
		t.Fatal("cause lost")
	}
	want := "ipmi.test: BMC h:623 is busy or unreachable: 2 errors occurred: * provider: ipmitool: busy * no Opener implementations found"
	if err.Error() != want {
		t.Fatalf("error = %q\nwant    %q", err.Error(), want)
	}
}
