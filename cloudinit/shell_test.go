package cloudinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestShellScriptsParse runs sh -n or bash -n, as the shebang says, on
// every script the payloads write.
func TestShellScriptsParse(t *testing.T) {
	seen := 0
	for name, p := range policyCases(t) {
		for _, part := range splitMIME(t, render(t, p)) {
			var cfg cloudConfig
			if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
				t.Fatal(err)
			}
			for _, f := range cfg.WriteFiles {
				if !strings.HasPrefix(f.Content, "#!") {
					continue
				}
				seen++
				t.Run(name+part.Name+f.Path, func(t *testing.T) { lintShell(t, f) })
			}
		}
	}
	if seen == 0 {
		t.Fatal("no scripts found to lint")
	}
}

func lintShell(t *testing.T, f writeFile) {
	shell := map[string]string{"#!/bin/sh": "sh", "#!/bin/bash": "bash"}[strings.SplitN(f.Content, "\n", 2)[0]]
	if shell == "" {
		t.Fatalf("%s: unknown shebang", f.Path)
	}
	if f.Permissions != "0755" {
		t.Errorf("%s: mode %s, want 0755", f.Path, f.Permissions)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(f.Path))
	if err := os.WriteFile(path, []byte(f.Content), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(shell, "-n", path).CombinedOutput(); err != nil {
		t.Errorf("%s -n %s: %v\n%s", shell, f.Path, err, out)
	}
}
