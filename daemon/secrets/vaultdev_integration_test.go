//go:build integration

package secrets_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/vault/api"

	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// vaultDev is one hack/vaultdev process: a real Vault core on loopback.
type vaultDev struct {
	Addr       string   `json:"addr"`
	Token      string   `json:"token"`
	UnsealKeys []string `json:"unseal_keys"`
	CACert     string   `json:"ca_cert"`
	cmd        *exec.Cmd
	root       *api.Client
}

// startVault runs the binary named by MAAS_SIDECAR_VAULTDEV (make test
// builds it) and fails the test when it is not there.
func startVault(t *testing.T, args ...string) *vaultDev {
	t.Helper()
	bin := os.Getenv("MAAS_SIDECAR_VAULTDEV")
	if bin == "" {
		t.Fatal("MAAS_SIDECAR_VAULTDEV is not set: run the integration tests through make test, which builds hack/vaultdev into bin/vaultdev")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("MAAS_SIDECAR_VAULTDEV: %v (make bin/vaultdev builds it)", err)
	}
	v := &vaultDev{cmd: exec.Command(bin, args...)}
	var stderr bytes.Buffer
	v.cmd.Stderr = &stderr
	out, err := v.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.cmd.Start(); err != nil {
		t.Fatalf("start vaultdev: %v", err)
	}
	t.Cleanup(func() {
		_ = v.cmd.Process.Signal(syscall.SIGCONT)
		_ = v.cmd.Process.Signal(syscall.SIGTERM)
		_ = v.cmd.Wait()
		if t.Failed() {
			t.Logf("vaultdev stderr:\n%s", stderr.String())
		}
	})
	v.readBanner(t, out)
	v.root = v.client(t, v.Token)
	return v
}

func (v *vaultDev) readBanner(t *testing.T, out interface{ Read([]byte) (int, error) }) {
	t.Helper()
	line := make(chan []byte, 1)
	go func() {
		b, _ := bufio.NewReader(out).ReadBytes('\n')
		line <- b
	}()
	select {
	case b := <-line:
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("vaultdev banner %q: %v", b, err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("vaultdev printed no address within 60 s")
	}
}

// client is a plain vault/api client for setting up the test.
func (v *vaultDev) client(t *testing.T, token string) *api.Client {
	t.Helper()
	cfg := api.DefaultConfig()
	cfg.Address = v.Addr
	if v.CACert != "" {
		if err := cfg.ConfigureTLS(&api.TLSConfig{CACert: v.CACert}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := api.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.SetToken(token)
	return c
}

// signal sends s to vaultdev; for SIGSTOP it waits until every thread has
// stopped, since the signal takes effect asynchronously.
func (v *vaultDev) signal(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := v.cmd.Process.Signal(s); err != nil {
		t.Fatalf("signal %v: %v", s, err)
	}
	for i := 0; s == syscall.SIGSTOP && !v.stopped(t); i++ {
		if i == 200 {
			t.Fatal("vaultdev did not stop within 2 s of SIGSTOP")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stopped reports whether every thread of vaultdev is in state T (stopped).
func (v *vaultDev) stopped(t *testing.T) bool {
	t.Helper()
	stats, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", v.cmd.Process.Pid))
	if err != nil || len(stats) == 0 {
		t.Fatalf("read vaultdev's threads: %v", err)
	}
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		// The state follows the parenthesised command name: "pid (comm) T ...".
		if i := bytes.LastIndexByte(b, ')'); i < 0 || i+2 >= len(b) || b[i+2] != 'T' {
			return false
		}
	}
	return true
}

func (v *vaultDev) seal(t *testing.T) {
	t.Helper()
	if err := v.root.Sys().Seal(); err != nil {
		t.Fatalf("seal: %v", err)
	}
}

func (v *vaultDev) unseal(t *testing.T) {
	t.Helper()
	for _, k := range v.UnsealKeys {
		if _, err := v.root.Sys().Unseal(k); err != nil {
			t.Fatalf("unseal: %v", err)
		}
	}
}

// adapter returns the secrets.Vault under test, logging in with a token
// file holding token.
func (v *vaultDev) adapter(t *testing.T, token string, edit func(*secrets.VaultConfig), o secrets.VaultOptions) *secrets.Vault {
	t.Helper()
	cfg := secrets.VaultConfig{Address: v.Addr, CACertFile: v.CACert, TokenFile: writeFile(t, "token", token), Timeout: 2 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	a, err := secrets.NewVault(cfg, o)
	if err != nil {
		t.Fatalf("NewVault: %v", err)
	}
	return a
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// tokenWithPolicy creates a token holding only the given policy (and
// Vault's default policy).
func (v *vaultDev) tokenWithPolicy(t *testing.T, hcl string) string {
	t.Helper()
	if err := v.root.Sys().PutPolicy("limited", hcl); err != nil {
		t.Fatal(err)
	}
	s, err := v.root.Auth().Token().Create(&api.TokenCreateRequest{Policies: []string{"limited"}})
	if err != nil {
		t.Fatal(err)
	}
	return s.Auth.ClientToken
}

// appRole enables AppRole, creates role "sidecar" with the given settings
// and a policy reading and writing kv/, and returns its role and secret id.
func (v *vaultDev) appRole(t *testing.T, role map[string]any) (roleID, secretID string) {
	t.Helper()
	if err := v.root.Sys().EnableAuthWithOptions("approle", &api.EnableAuthOptions{Type: "approle"}); err != nil {
		t.Fatal(err)
	}
	if err := v.root.Sys().PutPolicy("sidecar", `path "kv/*" { capabilities = ["create", "read", "update"] }`); err != nil {
		t.Fatal(err)
	}
	role["token_policies"] = "sidecar"
	if _, err := v.root.Logical().Write("auth/approle/role/sidecar", role); err != nil {
		t.Fatal(err)
	}
	r, err := v.root.Logical().Read("auth/approle/role/sidecar/role-id")
	if err != nil {
		t.Fatal(err)
	}
	s, err := v.root.Logical().Write("auth/approle/role/sidecar/secret-id", nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Data["role_id"].(string), s.Data["secret_id"].(string)
}

// appRoleConfig switches a VaultConfig from the token file to AppRole.
func appRoleConfig(t *testing.T, roleID, secretID string) func(*secrets.VaultConfig) {
	return func(c *secrets.VaultConfig) {
		c.TokenFile = ""
		c.RoleIDFile = writeFile(t, "role-id", roleID)
		c.SecretIDFile = writeFile(t, "secret-id", secretID)
	}
}
