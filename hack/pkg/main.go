// Command pkg writes the Debian packages of maas-sidecar and
// gpuaas-node-agent with nfpm. It lives in its own module so that nfpm's
// dependency tree stays out of the product's go.mod; `make deb` builds the
// binaries and runs it:
//
//	pkg --version 1.2.3 --epoch 1700000000 --src . --bin bin/deb --out dist
//
// --bin holds <arch>/<binary> for every package's architecture. The man
// pages and the bash completion are generated from the amd64 binaries'
// own help, so the builder runs them (on an amd64 host). A dynamically
// linked binary (the daemon, with the dqlite store) adds the Depends
// dpkg-shlibdeps derives from it, so the host needs dpkg-dev and the
// libraries it was linked against. Every file and
// directory of a package carries the --epoch mtime and every gzip stream
// is written without a timestamp: the same inputs give the same bytes.
// Nothing is fetched: once the module cache holds nfpm the build is
// offline.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pkg:", err)
		os.Exit(1)
	}
}

// options are the command line.
type options struct {
	version  string
	epoch    int64
	src, bin string
	out      string
}

func parse(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("pkg", flag.ContinueOnError)
	fs.StringVar(&o.version, "version", "", "Debian version of the packages (required)")
	fs.Int64Var(&o.epoch, "epoch", 0, "SOURCE_DATE_EPOCH: the mtime of every file (required)")
	fs.StringVar(&o.src, "src", ".", "the repository root (units, conffile, copyright, scripts)")
	fs.StringVar(&o.bin, "bin", "", "directory holding <arch>/<binary> (required)")
	fs.StringVar(&o.out, "out", "dist", "directory the .deb files are written to")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.version == "" || o.epoch <= 0 || o.bin == "" {
		return o, fmt.Errorf("--version, --epoch and --bin are required")
	}
	return o, nil
}

func run(args []string, stdout io.Writer) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	gen, err := os.MkdirTemp("", "pkg-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(gen)
	b := builder{opts: o, gen: gen, mtime: time.Unix(o.epoch, 0).UTC()}
	if err := b.generate(); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	for _, p := range b.packages() {
		path, err := b.write(p)
		if err != nil {
			return fmt.Errorf("%s %s: %w", p.name, p.arch, err)
		}
		fmt.Fprintln(stdout, path)
	}
	return nil
}
