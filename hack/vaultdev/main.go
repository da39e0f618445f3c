// Command vaultdev serves a real, in-process Vault core on loopback for the
// integration tests of maas-sidecar: KV version 2 mounted at kv/ and the
// AppRole auth method available. It prints one JSON line with the address,
// the root token and the unseal keys, then serves until SIGINT or SIGTERM.
// All state is in memory. It is a test tool and never part of a release.
package main

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/vault/builtin/credential/approle"
	vaulthttp "github.com/hashicorp/vault/http"
	"github.com/hashicorp/vault/sdk/logical"
	"github.com/hashicorp/vault/vault"
)

// banner is the line printed once the server is ready.
type banner struct {
	Addr       string   `json:"addr"`
	Token      string   `json:"token"`
	UnsealKeys []string `json:"unseal_keys"`
	CACert     string   `json:"ca_cert,omitempty"`
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	tlsDir := flag.String("tls-dir", "", "serve HTTPS with a fresh CA whose certificate is written to DIR/ca.pem")
	verbose := flag.Bool("v", false, "log Vault's own messages to stderr")
	flag.Parse()
	if err := run(*listen, *tlsDir, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "vaultdev:", err)
		os.Exit(1)
	}
}

func run(listen, tlsDir string, verbose bool) error {
	tb := &serverTB{}
	defer tb.runCleanups()
	core, keys, token := newCore(tb, verbose)
	if err := mountKV(core, token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	b := banner{Addr: "http://" + ln.Addr().String(), Token: token}
	if tlsDir != "" {
		if ln, b.CACert, err = serveTLS(ln, tlsDir); err != nil {
			return err
		}
		b.Addr = "https://" + ln.Addr().String()
	}
	for _, k := range keys {
		b.UnsealKeys = append(b.UnsealKeys, hex.EncodeToString(k))
	}
	vaulthttp.TestServerWithListener(tb, ln, b.Addr, core)
	if err := json.NewEncoder(os.Stdout).Encode(b); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	return ln.Close()
}

func newCore(tb *serverTB, verbose bool) (*vault.Core, [][]byte, string) {
	logger := hclog.NewNullLogger()
	if verbose {
		logger = hclog.New(&hclog.LoggerOptions{Name: "vault", Output: os.Stderr})
	}
	core := vault.TestCoreWithSealAndUI(tb, &vault.CoreConfig{
		Logger:             logger,
		CredentialBackends: map[string]logical.Factory{"approle": approle.Factory},
	})
	token, keys := vault.TestInitUnsealCore(tb, core)
	return core, keys, token
}
