package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// generate writes the man pages, the bash completion and the changelogs
// into the generated directory, from the amd64 binaries' own help.
func (b builder) generate() error {
	d := filepath.Join(b.opts.bin, "amd64", "maas-sidecar")
	a := filepath.Join(b.opts.bin, "amd64", "gpuaas-node-agent")
	daemonPage, err := daemonMan(d)
	if err != nil {
		return err
	}
	agentPage, err := agentMan(a)
	if err != nil {
		return err
	}
	completion, err := output(d, "completion", "bash")
	if err != nil {
		return err
	}
	out := map[string][]byte{
		"maas-sidecar.bash":              completion,
		"maas-sidecar.1.gz":              gz(daemonPage.render(b.mtime, b.opts.version)),
		"gpuaas-node-agent.1.gz":         gz(agentPage.render(b.mtime, b.opts.version)),
		"maas-sidecar.changelog.gz":      gz(changelog("maas-sidecar", b.opts.version, b.mtime)),
		"gpuaas-node-agent.changelog.gz": gz(changelog("gpuaas-node-agent", b.opts.version, b.mtime)),
	}
	for name, data := range out {
		if err := os.WriteFile(filepath.Join(b.gen, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// output runs a binary and returns what it printed on stdout and stderr.
// Help output exits non-zero in some commands (flag.ErrHelp); only a
// binary that does not run at all is an error.
func output(bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		return nil, fmt.Errorf("run %s %s: %w", bin, strings.Join(args, " "), err)
	}
	return out.Bytes(), nil
}

// gz compresses data the way `gzip -9n` does: no name, no timestamp.
func gz(data []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // level is valid
	_, _ = w.Write(data)                                    // bytes.Buffer does not fail
	_ = w.Close()
	return buf.Bytes()
}
