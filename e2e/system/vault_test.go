//go:build e2e

package system

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// vault is a real Vault server (bin/vaultdev) as a process.
type vault struct {
	addr, tokenFile string
	// token and unsealKeys are the root token and the unseal keys the
	// server printed (to seal and unseal it).
	token      string
	unsealKeys []string
}

func startVault(t testing.TB, bin string) vault {
	t.Helper()
	p := startProc(t, "vaultdev", nil, bin)
	line := p.waitLine(60*time.Second, `"addr"`, `"token"`)
	var b struct {
		Addr, Token string
		UnsealKeys  []string `json:"unseal_keys"`
	}
	if err := json.Unmarshal([]byte(line[strings.Index(line, "{"):]), &b); err != nil {
		t.Fatalf("vaultdev banner %q: %v", line, err)
	}
	tok := filepath.Join(t.TempDir(), "vault-token")
	if err := os.WriteFile(tok, []byte(b.Token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return vault{addr: b.Addr, tokenFile: tok, token: b.Token, unsealKeys: b.UnsealKeys}
}
