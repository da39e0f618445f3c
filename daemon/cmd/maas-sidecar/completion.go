package main

import (
	"fmt"
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
)

// builtins are the commands this package dispatches itself (not the
// operator commands of package cli), for the completion script.
var builtins = []string{"serve", "migrate", "store migrate", "backup", "restore", "maas-notify-forward", "evidence verify", "version", "help", "completion bash"}

// runCompletion prints the completion script of a shell (bash only).
func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] != "bash" {
		fmt.Fprintln(stderr, "usage: maas-sidecar completion bash")
		return exitUsage
	}
	fmt.Fprint(stdout, cli.BashCompletion(builtins))
	return exitOK
}
