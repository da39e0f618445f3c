package ipmi

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestNormalizePowerState(t *testing.T) {
	tests := []struct {
		raw  string
		want PowerState
	}{
		{"Chassis Power is on\n", PowerOn},
		{"Chassis Power is off\n", PowerOff},
		{"On", PowerOn},
		{"Off", PowerOff},
		{"PoweringOn", PowerUnknown},
		{"", PowerUnknown},
		{"Error: Unable to establish IPMI v2 / RMCP+ session", PowerUnknown},
	}
	for _, tt := range tests {
		if got := NormalizePowerState(tt.raw); got != tt.want {
			t.Errorf("NormalizePowerState(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		wantField string // "" means valid
	}{
		{"defaults", Config{}, ""},
		{"ipmitool then redfish", Config{Providers: []string{"ipmitool", "gofish"}}, ""},
		{"unknown provider", Config{Providers: []string{"intelamt"}}, "providers"},
		{"provider twice", Config{Providers: []string{"ipmitool", "gofish", "ipmitool"}}, "providers"},
		{"cipher suite not a number", Config{CipherSuite: "three"}, "cipher_suite"},
		{"cipher suite out of range", Config{CipherSuite: "18"}, "cipher_suite"},
		{"timeout above the cap", Config{Timeout: time.Minute}, "timeout"},
		{"negative timeout", Config{Timeout: -time.Second}, "timeout"},
		{"too many attempts", Config{Attempts: 11}, "attempts"},
		{"cap below backoff", Config{Backoff: 5 * time.Second, MaxBackoff: time.Second}, "backoff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Defaults().Validate()
			if tt.wantField == "" && err != nil {
				t.Fatalf("Validate = %v, want nil", err)
			}
			if tt.wantField != "" && (lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != tt.wantField) {
				t.Fatalf("Validate = %v, want invalid %s", err, tt.wantField)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	c := Config{}.Defaults()
	if c.CipherSuite != "3" || len(c.Providers) != 1 || c.Providers[0] != ProviderIPMITool {
		t.Fatalf("defaults = %+v, want cipher suite 3 and ipmitool only", c)
	}
}
