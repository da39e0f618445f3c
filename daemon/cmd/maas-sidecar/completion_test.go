package main_test

import (
	"strings"
	"testing"
)

// TestCompletion: `completion bash` prints the script, with the daemon's
// own commands beside the operator commands; other shells are a usage error.
func TestCompletion(t *testing.T) {
	code, out, _ := runBinary(t, "completion", "bash")
	if code != 0 || !strings.Contains(out, "complete -o filenames -F _maas_sidecar maas-sidecar") {
		t.Fatalf("completion bash = %d %q", code, out)
	}
	for _, w := range []string{"serve", "version", "help", "completion", "site", "decommission"} {
		if !strings.Contains(out, " "+w+" ") && !strings.Contains(out, `"`+w+" ") && !strings.Contains(out, " "+w+`"`) {
			t.Errorf("the top-level words lack %q", w)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "zsh"}} {
		if code, _, errOut := runBinary(t, args...); code != 2 || !strings.Contains(errOut, "completion bash") {
			t.Errorf("%v = %d %q, want 2 and the usage", args, code, errOut)
		}
	}
}
