// Command maas-sidecar is the MAAS sidecar daemon (`maas-sidecar serve`) and,
// as its operator verbs land, its command-line client. This package only
// parses the command line and wires the parts together.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
