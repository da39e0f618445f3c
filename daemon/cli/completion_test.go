package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBashCompletionCompletes sources the script in bash and asks it to
// complete command lines, with a stand-in binary answering -h for flags.
func TestBashCompletionCompletes(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is needed to run the completion script:", err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "completion.bash")
	if err := os.WriteFile(script, []byte(BashCompletion([]string{"serve", "completion bash"})), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "maas-sidecar")
	fake := "#!/bin/sh\n[ \"$*\" = 'site create -h' ] || exit 0\n" +
		"printf 'Usage of maas-sidecar site create:\\n  -name string\\n    \\tsite name\\n  -node-pxe-iface string\\n    \\tiface\\n  -o string\\n'\nexit 2\n"
	if err := os.WriteFile(bin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string // the words typed; the last one is being completed
		want []string
	}{
		{"si", []string{"site"}},
		{"se", []string{"serve"}},
		{"comp", []string{"completion"}},
		{"completion ", []string{"bash"}},
		{"node re", []string{"replace-part", "revoke-certificate"}},
		{"onboarding re", []string{"rerun", "restart-clean", "resume", "retry"}},
		{"site create --n", []string{"--name", "--node-pxe-iface"}},
		{"site create -", []string{"--name", "--node-pxe-iface", "--o"}},
		{"site list --n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			words := append([]string{bin}, strings.Split(tt.line, " ")...)
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\n" +
				"COMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n_maas_sidecar\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			out, err := exec.Command("bash", "-c", prog).CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v: %s", err, out)
			}
			got := strings.Fields(string(out))
			if len(got) == 0 {
				got = nil
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("completions of %q (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}
