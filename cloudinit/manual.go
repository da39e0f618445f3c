package cloudinit

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// installArchBin picks the agent package by the host's architecture on a
// manual host, whose architecture the daemon does not know.
const installArchBin = "/usr/local/sbin/gpuaas-install-agent-arch"

// heredocEnd closes every file of the shell bootstrap.
const heredocEnd = "GPUAAS_BOOTSTRAP_EOF"

var archRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// archPackage is one architecture's package in install-agent-arch.sh.
type archPackage struct{ Arch, URL, SHA256 string }

// Manual renders the bootstrap of a host that MAAS does not deploy (seed
// 001 §2.1 manual mode, §9 the bootstrap-script endpoint): the agent's
// config, its one-time enrollment token, the daemon's CA bundle and the
// installers, which pick the package of the host's own architecture
// (dpkg --print-architecture) among every configured one. mode shell is
// a POSIX sh script that writes those files (under GPUAAS_BOOTSTRAP_ROOT
// when set) and runs the installer; mode cloud_init is one #cloud-config
// document that does the same. Errors: conflict when no agent package is
// configured (a daemon capability), invalid for a bad value or mode.
func (b Bootstrap) Manual(nodeID string, token lifecycle.Secret, mode lifecycle.ScriptMode) ([]byte, error) {
	const op = "bootstrap.Manual"
	if len(b.AgentPackages) == 0 {
		return nil, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"no gpuaas-node-agent package is configured: set agent.packages (or agent.package_url)")
	}
	files, err := b.manualFiles(nodeID, token)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInvalid, op, err)
	}
	switch mode {
	case lifecycle.ScriptShell:
		out, err := shellBootstrap(nodeID, files)
		if err != nil {
			return nil, lifecycle.Wrap(lifecycle.CodeInvalid, op, err)
		}
		return out, nil
	case lifecycle.ScriptCloudInit:
		p := part{name: "manual-bootstrap.cfg", header: []string{
			"gpuaas-node-agent bootstrap of node " + nodeID + " (maas-sidecar manual mode).",
			"Writes the agent config, its one-time enrollment token and CA bundle, then installs the agent."},
			cfg: cloudConfig{WriteFiles: files, RunCmd: [][]string{{installArchBin}}}}
		out, err := p.body()
		if err != nil {
			return nil, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
		}
		return out, nil
	}
	return nil, lifecycle.Invalid(op, "mode", "mode %.32q is not shell or cloud_init", mode)
}

// manualFiles are the files of a manual bootstrap: the cloud-init agent
// part's (validated the same way) plus the architecture picker.
func (b Bootstrap) manualFiles(nodeID string, token lifecycle.Secret) ([]writeFile, error) {
	if err := match("node_id", nodeID, nodeIDRe); err != nil {
		return nil, err
	}
	var pkgs []archPackage
	for _, arch := range slices.Sorted(maps.Keys(b.AgentPackages)) {
		p := b.AgentPackages[arch]
		field := "agent.packages." + arch
		if err := match(field, arch, archRe); err != nil {
			return nil, err
		}
		if err := fetchURL(field+".url", field+".sha256", p.URL, p.SHA256); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, archPackage{Arch: arch, URL: p.URL, SHA256: digestArg(p.SHA256)})
	}
	a := Agent{PackageURL: pkgs[0].URL, PackageSHA256: b.AgentPackages[pkgs[0].Arch].SHA256, APIURL: b.AgentAPIURL,
		EnrollmentToken: token.Reveal(), CABundlePEM: b.CABundlePEM, SigningPublicKey: b.SigningPublicKey,
		HealthInterval: b.AgentHealthInterval}
	if err := a.validate(); err != nil {
		return nil, err
	}
	agent, err := agentPart(nodeID, a)
	if err != nil {
		return nil, err
	}
	picker, err := execute("install-agent-arch.sh.tmpl", pkgs)
	if err != nil {
		return nil, err
	}
	return append(agent.cfg.WriteFiles, file(installArchBin, "0755", picker)), nil
}

// shellBootstrap is the POSIX sh form: each file through a quoted here
// document (created 0600, then given its mode), then the installer.
func shellBootstrap(nodeID string, files []writeFile) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `#!/bin/sh
# gpuaas-node-agent bootstrap of node %s, issued by maas-sidecar (manual
# mode). It writes the agent's config, its one-time enrollment token and
# the daemon's CA bundle, then installs the gpuaas-node-agent package of
# this host's architecture (its sha256 checked) and starts the agent.
# GPUAAS_BOOTSTRAP_ROOT, when set, is the root every path is written under.
# The outcome is in /var/lib/gpuaas-bootstrap/agent.status.
set -eu
root=${GPUAAS_BOOTSTRAP_ROOT:-}
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
	echo "gpuaas bootstrap: run it as root (sudo sh)" >&2
	exit 1
fi
umask 077
`, nodeID)
	for _, f := range files {
		content := f.Content
		if !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		if strings.Contains("\n"+content, "\n"+heredocEnd+"\n") {
			return nil, &FieldError{f.Path, "holds the here-document delimiter"}
		}
		dir := f.Path[:strings.LastIndex(f.Path, "/")]
		fmt.Fprintf(&b, "mkdir -p \"$root%s\"\ncat >\"$root%s\" <<'%s'\n%s%s\nchmod %s \"$root%s\"\n",
			dir, f.Path, heredocEnd, content, heredocEnd, f.Permissions, f.Path)
	}
	fmt.Fprintf(&b, "exec \"$root%s\"\n", installArchBin)
	return []byte(b.String()), nil
}
