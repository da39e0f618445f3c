package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

const evidenceUsage = `usage: maas-sidecar evidence verify FILE --key site.pub
       maas-sidecar evidence export NODE [--out FILE]
       maas-sidecar evidence keys SITE [--out site.pub]
       maas-sidecar evidence rotate-key --reason WHY
  verify checks, offline, a clean certificate (a DSSE envelope) or a node's
  exported bundle: each signature against the keys in site.pub (the
  current key, then retired ones), the chain of certificates and their
  inclusion in the site's signed log; each failure is explained.
  export writes a node's certificates with the site log and its signed
  head (the bundle verify checks); keys writes the site's public keys.
  rotate-key (admin; audited) retires the site key, kept among the
  retired keys so what it signed stays verifiable, and makes a new one
  that signs from the next certificate on. These three call the admin
  API (operator flags as for the other commands).
`

// runEvidence dispatches the evidence subcommands.
func runEvidence(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "export" || args[0] == "keys" || args[0] == "rotate-key") {
		return cli.Main(context.Background(), append([]string{"evidence"}, args...), cli.Env{Stdin: os.Stdin, Stdout: stdout,
			Stderr: stderr, Getenv: os.Getenv, StateDir: config.Default().StateDir})
	}
	if len(args) == 0 || args[0] != "verify" {
		fmt.Fprint(stderr, evidenceUsage)
		return exitUsage
	}
	file, key, err := parseEvidenceVerify(args[1:])
	if code, stop := parseExit("evidence verify", err, stderr); stop {
		if code == exitOK {
			fmt.Fprint(stdout, evidenceUsage)
		}
		return code
	}
	return evidenceVerify(context.Background(), file, key, stdout, stderr)
}

// parseEvidenceVerify reads FILE and --key in either order.
func parseEvidenceVerify(args []string) (file, key string, err error) {
	fs := flag.NewFlagSet("maas-sidecar evidence verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&key, "key", "", "PEM `file` of the site's public keys")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return "", "", err
			}
			return "", "", usageError(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(pos) != 1:
		return "", "", usageError(fmt.Sprintf("want exactly one FILE, got %d", len(pos)))
	case key == "":
		return "", "", usageError("--key site.pub is required (the site's public keys: maas-sidecar evidence keys SITE --out site.pub, or GET /api/v1/admin/maas-sites/{id}/evidence-keys)")
	}
	return pos[0], key, nil
}

func evidenceVerify(ctx context.Context, file, keyFile string, stdout, stderr io.Writer) int {
	kb, err := os.ReadFile(keyFile)
	if err != nil {
		fmt.Fprintf(stderr, "maas-sidecar evidence verify: key file: %v\n", err)
		return exitUsage
	}
	keys, err := cert.ParsePublicKeys(kb)
	if err != nil {
		fmt.Fprintf(stderr, "maas-sidecar evidence verify: key file %s: %v\n", keyFile, err)
		return exitUsage
	}
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "maas-sidecar evidence verify: %v\n", err)
		return exitUsage
	}
	report, err := cert.VerifyFile(ctx, b, keys)
	if err != nil {
		fmt.Fprintf(stderr, "maas-sidecar evidence verify: %s: NOT VERIFIED: %v\n", file, err)
		return exitFail
	}
	for _, line := range report {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "%s: VERIFIED\n", file)
	return exitOK
}
