package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestDefaultValidates(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Config)
		key     string
		message string
	}{
		{"listen without port", func(c *Config) { c.AdminListen = "x" }, "admin_listen", `config: admin_listen: "x" is not host:port`},
		{"listen bad port", func(c *Config) { c.AdminListen = "127.0.0.1:99999" }, "admin_listen", `"127.0.0.1:99999" is not host:port`},
		{"listen named port", func(c *Config) { c.AdminListen = "127.0.0.1:http" }, "admin_listen", "is not host:port"},
		{"empty state dir", func(c *Config) { c.StateDir = "" }, "state_dir", "config: state_dir: must not be empty"},
		{"bad level", func(c *Config) { c.LogLevel = "loud" }, "log_level", `config: log_level: "loud" is not one of`},
		{"zero shutdown", func(c *Config) { c.ShutdownTimeout = 0 }, "shutdown_timeout", "config: shutdown_timeout: 0s is not a positive duration"},
		{"negative lock wait", func(c *Config) { c.StoreLockTimeout = -time.Second }, "store_lock_timeout", "store_lock_timeout: -1s"},
		{"zero poll interval", func(c *Config) { c.PollInterval = 0 }, "poll_interval", "poll_interval: 0s"},
		{"slow poll interval", func(c *Config) { c.PollInterval = 5 * time.Minute }, "poll_interval", "over 1m"},
		{"agent listen", func(c *Config) { c.Agent.Listen = "5291" }, "agent.listen", `agent.listen: "5291" is not host:port`},
		{"agent url not https", func(c *Config) { c.Agent.URL = "http://region:5291" }, "agent.url", "is not an https URL"},
		{"health interval under 1s", func(c *Config) { c.Agent.HealthInterval = 500 * time.Millisecond }, "agent.health_interval",
			"agent.health_interval: 500ms must be a duration of 1s to 24h0m0s"},
		{"health interval over 24h", func(c *Config) { c.Agent.HealthInterval = 25 * time.Hour }, "agent.health_interval", "25h0m0s must be"},
		{"package url", func(c *Config) { c.Agent.PackageURL = "ftp://x/a.deb" }, "agent.package_url", "is not an http(s) URL"},
		{"admin read timeout", func(c *Config) { c.AdminHTTP.ReadTimeout = 0 }, "admin_http.read_timeout", "0s is not a positive"},
		{"agent idle timeout", func(c *Config) { c.Agent.HTTP.IdleTimeout = -time.Second }, "agent.http.idle_timeout", "-1s"},
		{"agent write timeout", func(c *Config) { c.Agent.HTTP.WriteTimeout = 0 }, "agent.http.write_timeout", "0s"},
		{"header cap", func(c *Config) { c.AdminHTTP.MaxHeaderBytes = 10 }, "admin_http.max_header_bytes", "10 is not between"},
		{"connection cap", func(c *Config) { c.Agent.HTTP.MaxConnections = 0 }, "agent.http.max_connections", "0 is not a positive"},
		{"handshake timeout", func(c *Config) { c.Agent.Connections.HandshakeTimeout = 0 }, "agent.connections.handshake_timeout", "0s is not a positive"},
		{"per-source cap", func(c *Config) { c.Agent.Connections.PerSource = 0 }, "agent.connections.per_source", "0 is not a positive"},
		{"unauthenticated share", func(c *Config) { c.Agent.Connections.UnauthenticatedPercent = 101 }, "agent.connections.unauthenticated_percent", "101 is not between 1 and 100"},
		{"events url", func(c *Config) { c.Events.URL = "ftp://cp/events" }, "events.url", `events.url: "ftp://cp/events" is not an http(s) URL`},
		{"events url with password", func(c *Config) { c.Events.URL = "https://u:p@cp/events"; c.Events.SecretFile = "/s" }, "events.url", "must not carry credentials"},
		{"events without secret", func(c *Config) { c.Events.URL = "https://cp/events" }, "events.secret_file", "required when events.url is set"},
		{"events timeout", func(c *Config) { c.Events.Timeout = 0 }, "events.timeout", "events.timeout: 0s is not a positive"},
		{"console origin with a path", func(c *Config) { c.Console.PublicOrigin = "https://proxy.example/console" }, "console.public_origin", "is not an origin"},
		{"console origin not http", func(c *Config) { c.Console.PublicOrigin = "ftp://proxy.example" }, "console.public_origin", "is not an origin"},
		{"connectivity port", func(c *Config) { c.Connectivity.Port = 70000 }, "connectivity.port", "70000 is not a TCP port"},
		{"connectivity timeout", func(c *Config) { c.Connectivity.Timeout = 0 }, "connectivity.timeout", "is not a positive"},
		{"events retention", func(c *Config) { c.Events.Retention = -time.Hour }, "events.retention", "events.retention: -1h0m0s is negative"},
		{"http package without digest", func(c *Config) { c.Agent.PackageURL = "http://mirror/a.deb" }, "agent.package_sha256", "required"},
		{"bad digest", func(c *Config) { c.Agent.PackageURL, c.Agent.PackageSHA256 = "http://mirror/a.deb", "ABC" }, "agent.package_sha256", "64 lowercase hex"},
		{"digest without url", func(c *Config) { c.Agent.PackageSHA256 = digest }, "agent.package_url", "is required"},
		{"arm64 url", func(c *Config) { c.Agent.Packages = pkgs("arm64", AgentPackage{URL: "ftp://x/a.deb"}) }, "agent.packages.arm64.url",
			`agent.packages.arm64.url: "ftp://x/a.deb" is not an http(s) URL`},
		{"arm64 url with credentials", func(c *Config) { c.Agent.Packages = pkgs("arm64", AgentPackage{URL: "https://u:p@m/a.deb"}) },
			"agent.packages.arm64.url", "must not carry credentials"},
		{"package url with a quote", func(c *Config) { c.Agent.PackageURL = "https://m/a'.deb" }, "agent.package_url", "quotes"},
		{"arm64 url missing", func(c *Config) { c.Agent.Packages = pkgs("arm64", AgentPackage{SHA256: digest}) }, "agent.packages.arm64.url", "is required"},
		{"arm64 http without digest", func(c *Config) { c.Agent.Packages = pkgs("arm64", AgentPackage{URL: "http://mirror/a.deb"}) },
			"agent.packages.arm64.sha256", "agent.packages.arm64.sha256: required when agent.packages.arm64.url is plain http"},
		{"arm64 bad digest", func(c *Config) {
			c.Agent.Packages = pkgs("arm64", AgentPackage{URL: "https://m/a.deb", SHA256: digest[1:]})
		},
			"agent.packages.arm64.sha256", "64 lowercase hex"},
		{"maas architecture as key", func(c *Config) { c.Agent.Packages = pkgs("arm64/generic", AgentPackage{URL: "https://m/a.deb"}) },
			"agent.packages.arm64/generic", "not a Debian architecture name"},
		{"no regiond.conf path", func(c *Config) { c.Notify.RegiondConf = nil }, "notify.regiond_conf", "must list at least one path"},
		{"relative regiond.conf", func(c *Config) { c.Notify.RegiondConf = []string{"/etc/maas/regiond.conf", "regiond.conf"} },
			"notify.regiond_conf", `notify.regiond_conf: [1] "regiond.conf" is not a clean absolute path`},
		{"zero min backoff", func(c *Config) { c.Notify.MinBackoff = 0 }, "notify.min_backoff", "notify.min_backoff: 0s is not a positive"},
		{"negative max backoff", func(c *Config) { c.Notify.MaxBackoff = -time.Second }, "notify.max_backoff", "-1s is not a positive"},
		{"min over max", func(c *Config) { c.Notify.MinBackoff = time.Minute }, "notify.min_backoff", "1m0s is over notify.max_backoff (30s)"},
		{"max backoff over 5m", func(c *Config) { c.Notify.MaxBackoff = 6 * time.Minute }, "notify.max_backoff", "6m0s is over 5m"},
		{"both forms for amd64", func(c *Config) {
			c.Agent.PackageURL, c.Agent.Packages = "https://m/a.deb", pkgs("amd64", AgentPackage{URL: "https://m/b.deb"})
		}, "agent.package_url", "agent.package_url: conflicts with agent.packages.amd64: agent.package_url and agent.package_sha256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.mutate(&c)
			err := c.Validate()
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != tt.key {
				t.Fatalf("Validate() = %v (code %q, field %q), want invalid %s", err,
					lifecycle.ErrorCode(err), lifecycle.ErrorField(err), tt.key)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("Validate() = %q, want it to contain %q", err, tt.message)
			}
		})
	}
}

const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func pkgs(arch string, p AgentPackage) map[string]AgentPackage {
	return map[string]AgentPackage{arch: p}
}

func TestValidateAcceptsPackages(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Agent)
		want   map[string]AgentPackage
	}{
		{"none", func(*Agent) {}, map[string]AgentPackage{}},
		{"older keys are amd64", func(a *Agent) { a.PackageURL, a.PackageSHA256 = "http://m/a.deb", digest },
			pkgs("amd64", AgentPackage{"http://m/a.deb", digest})},
		{"older keys and arm64", func(a *Agent) {
			a.PackageURL, a.Packages = "https://m/amd.deb", pkgs("arm64", AgentPackage{"http://m/arm.deb", digest})
		}, map[string]AgentPackage{"amd64": {URL: "https://m/amd.deb"}, "arm64": {"http://m/arm.deb", digest}}},
		{"map only", func(a *Agent) {
			a.Packages = map[string]AgentPackage{"amd64": {URL: "https://m/amd.deb"}, "arm64": {URL: "https://m/arm.deb"}}
		}, map[string]AgentPackage{"amd64": {URL: "https://m/amd.deb"}, "arm64": {URL: "https://m/arm.deb"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.mutate(&c.Agent)
			if err := c.Validate(); err != nil {
				t.Fatalf("Validate() = %v", err)
			}
			if d := cmp.Diff(tt.want, c.Agent.PackageSet()); d != "" {
				t.Errorf("PackageSet() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestValidateAcceptsPortZero(t *testing.T) {
	c := Default()
	c.AdminListen = "127.0.0.1:0"
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate() = %v", err)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want func(*Config)
	}{
		{"empty file keeps defaults", "", func(*Config) {}},
		{"comments only", "# nothing here\n", func(*Config) {}},
		{"values override defaults", "admin_listen: 0.0.0.0:6000\nlog_level: debug\nshutdown_timeout: 3s\n",
			func(c *Config) { c.AdminListen, c.LogLevel, c.ShutdownTimeout = "0.0.0.0:6000", "debug", 3*time.Second }},
		{"listener limits", "agent:\n  http:\n    idle_timeout: 15s\n    max_connections: 5000\n",
			func(c *Config) { c.Agent.HTTP.IdleTimeout, c.Agent.HTTP.MaxConnections = 15*time.Second, 5000 }},
		{"events", "events:\n  url: https://cp.example/events\n  secret_file: /etc/maas-sidecar/events.secret\n  timeout: 3s\n",
			func(c *Config) {
				c.Events = Events{URL: "https://cp.example/events", SecretFile: "/etc/maas-sidecar/events.secret", Timeout: 3 * time.Second,
					Retention: 168 * time.Hour}
			}},
		{"events retention", "events:\n  retention: 720h\n", func(c *Config) { c.Events.Retention = 720 * time.Hour }},
		{"agent packages", "agent:\n  packages:\n    amd64: {url: https://m/amd.deb}\n    arm64:\n      url: http://m/arm.deb\n      sha256: " + digest + "\n",
			func(c *Config) {
				c.Agent.Packages = map[string]AgentPackage{"amd64": {URL: "https://m/amd.deb"}, "arm64": {"http://m/arm.deb", digest}}
			}},
		{"events kept forever", "events:\n  retention: 0s\n", func(c *Config) { c.Events.Retention = 0 }},
		{"notify", "notify:\n  regiond_conf: [/srv/maas/regiond.conf]\n  min_backoff: 1s\n  max_backoff: 5m\n",
			func(c *Config) {
				c.Notify = Notify{RegiondConf: []string{"/srv/maas/regiond.conf"}, MinBackoff: time.Second, MaxBackoff: 5 * time.Minute}
			}},
		{"connectivity check off", "connectivity:\n  port: 0\n  timeout: 2s\n",
			func(c *Config) { c.Connectivity = Connectivity{Port: 0, Timeout: 2 * time.Second} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.yaml))
			if err != nil {
				t.Fatalf("Parse() = %v", err)
			}
			want := Default()
			tt.want(&want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Parse() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml, field, message string
	}{
		{"unknown key", "admin_listen: 127.0.0.1:1\nadmin_lisen: x\n", "admin_lisen", "admin_lisen: unknown key (line 2)"},
		{"bad duration", "shutdown_timeout: soon\n", "", "soon"},
		{"not a mapping", "- a\n", "", "config"},
		{"unknown notify key", "notify:\n  min_backoff: 1s\n  backoff: 2s\n", "backoff", "backoff: unknown key (line 3)"},
		{"unknown package key", "agent:\n  packages:\n    arm64: {url: https://m/a.deb, sha: x}\n", "sha", "sha: unknown key (line 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml))
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != tt.field {
				t.Fatalf("Parse() = %v, want invalid with field %q", err, tt.field)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("Parse() = %q, want it to contain %q", err, tt.message)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.yaml")
	if _, err := Load(missing, false); err != nil {
		t.Errorf("Load(missing, optional) = %v, want defaults", err)
	}
	if _, err := Load(missing, true); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Load(missing, required) = %v, want an error naming the file", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("colour: blue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(bad, true)
	if err == nil || !strings.Contains(err.Error(), "config "+bad+": colour: unknown key") {
		t.Errorf("Load(bad) = %v, want the file and the key named", err)
	}
}
