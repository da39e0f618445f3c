package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func dqliteStore(addr string, join ...string) Store {
	return Store{Backend: BackendDqlite, LeaseTTL: 15 * time.Second, Dqlite: Dqlite{Address: addr, Join: join}}
}

func TestValidateStore(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Config)
		key     string // "" when valid
		message string
	}{
		{"default is bolt", func(*Config) {}, "", ""},
		{"dqlite member", func(c *Config) { c.Store = dqliteStore("10.0.0.1:9001", "10.0.0.2:9001") }, "", ""},
		{"daemon name", func(c *Config) { c.DaemonName = "region-1.dc_2" }, "", ""},
		{"unknown backend", func(c *Config) { c.Store.Backend = "etcd" }, "store.backend", `store.backend: "etcd" is not bolt or dqlite`},
		{"short ttl", func(c *Config) { c.Store.LeaseTTL = 2 * time.Second }, "store.lease_ttl", "store.lease_ttl: 2s is under the minimum 3s"},
		{"dqlite without address", func(c *Config) { c.Store = dqliteStore("") }, "store.dqlite.address", "required when store.backend is dqlite"},
		{"wildcard address", func(c *Config) { c.Store = dqliteStore("0.0.0.0:9001") }, "store.dqlite.address", "not a wildcard"},
		{"port zero", func(c *Config) { c.Store = dqliteStore("10.0.0.1:0") }, "store.dqlite.address", "fixed port"},
		{"bad join", func(c *Config) { c.Store = dqliteStore("10.0.0.1:9001", "10.0.0.2") }, "store.dqlite.join", `store.dqlite.join: "10.0.0.2" is not host:port`},
		{"join self", func(c *Config) { c.Store = dqliteStore("10.0.0.1:9001", "10.0.0.1:9001") }, "store.dqlite.join", "own address"},
		{"name with space", func(c *Config) { c.DaemonName = "region 1" }, "daemon_name", "may hold only letters"},
		{"long name", func(c *Config) { c.DaemonName = strings.Repeat("r", 65) }, "daemon_name", "longer than 64"},
		// bolt ignores the dqlite keys, so a bad address there is no error
		{"bolt ignores dqlite keys", func(c *Config) { c.Store.Dqlite.Address = "x" }, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.mutate(&c)
			err := c.Validate()
			if tt.key == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != tt.key {
				t.Fatalf("Validate() = %v (field %q), want invalid %s", err, lifecycle.ErrorField(err), tt.key)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("Validate() = %q, want it to contain %q", err, tt.message)
			}
		})
	}
}

func TestParseStore(t *testing.T) {
	c, err := Parse([]byte("daemon_name: r1\nstore:\n  backend: dqlite\n  lease_ttl: 6s\n  dqlite:\n    address: 10.0.0.1:9001\n    join: [10.0.0.2:9001]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Store{Backend: BackendDqlite, LeaseTTL: 6 * time.Second, Dqlite: Dqlite{Address: "10.0.0.1:9001", Join: []string{"10.0.0.2:9001"}, MemberTrust: MemberTrustStoreCA}}
	if diff := cmp.Diff(want, c.Store); diff != "" || c.DaemonName != "r1" {
		t.Errorf("store (-want +got):\n%s\ndaemon_name %q", diff, c.DaemonName)
	}
	bad, err := Parse([]byte("daemon_name: r1\nstore:\n  backend: dqlite\n  dqlite:\n    address: 10.0.0.1:9001\n    member_trust: any\n"))
	if err == nil {
		err = bad.Validate()
	}
	if err == nil || !strings.Contains(err.Error(), "store.dqlite.member_trust") {
		t.Errorf("member_trust any: %v; want refused naming the key", err)
	}
	if !c.Store.Shared() || Default().Store.Shared() {
		t.Error("Shared: want true for dqlite only")
	}
}

func TestHolder(t *testing.T) {
	host := func() (string, error) { return "region-a", nil }
	broken := func() (string, error) { return "", errors.New("no name") }
	tests := []struct {
		name     string
		daemon   string
		hostname func() (string, error)
		want     string
	}{
		{"daemon name wins", "r1", host, "r1"},
		{"hostname by default", "", host, "region-a"},
		{"no hostname", "", broken, "maas-sidecar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.DaemonName = tt.daemon
			if got := c.Holder(tt.hostname); got != tt.want {
				t.Errorf("Holder() = %q, want %q", got, tt.want)
			}
		})
	}
}
