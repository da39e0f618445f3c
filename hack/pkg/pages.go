package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// daemonMan builds maas-sidecar(1) from `maas-sidecar help`,
// `maas-sidecar serve -h` and each operator command's -h.
func daemonMan(bin string) (page, error) {
	help, err := output(bin, "help")
	if err != nil {
		return page{}, err
	}
	usage, cmds, _ := strings.Cut(string(help), "operator commands (add -h for flags):")
	serve, err := output(bin, "serve", "-h")
	if err != nil {
		return page{}, err
	}
	ops := section{title: "operator commands", text: "Each command calls the local admin API; " +
		"every command takes the flags listed under it."}
	for _, c := range commandList(cmds) {
		h, err := output(bin, append(strings.Fields(c), "-h")...)
		if err != nil {
			return page{}, err
		}
		ops.subs = append(ops.subs, sub{title: "maas-sidecar " + c, flags: parseFlags(h)})
	}
	return page{
		name: "maas-sidecar", summary: "GPU node lifecycle daemon beside MAAS, and its operator command line",
		synopsis: []string{"maas-sidecar serve [flags]", "maas-sidecar <command> [flags]"},
		sections: []section{
			{title: "description", text: "maas-sidecar runs beside a MAAS region controller as the " +
				"maas-sidecar.service unit (maas-sidecar serve) and owns the lifecycle of the site's GPU " +
				"machines. The same binary is the operator's command line for the daemon's local admin API.",
				pre: usage},
			{title: "serve options", subs: []sub{{flags: parseFlags(serve)}}},
			ops,
			{title: "files", pre: "/etc/maas-sidecar/config.yaml    configuration (every key commented at its default)\n" +
				"/var/lib/maas-sidecar/           state: store, internal CA, admin.token\n" +
				"/usr/share/maas-sidecar/         Prometheus alert rules, Grafana dashboard"},
			{title: "see also", text: "gpuaas-node-agent(1), systemctl(1)"},
		},
	}, nil
}

// commandList returns the indented command lines of the help's list.
func commandList(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if c := strings.TrimSpace(sc.Text()); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// agentMan builds gpuaas-node-agent(1) from `gpuaas-node-agent --help`.
func agentMan(bin string) (page, error) {
	help, err := output(bin, "--help")
	if err != nil {
		return page{}, err
	}
	flags := parseFlags(help)
	if len(flags) == 0 {
		return page{}, fmt.Errorf("%s --help printed no flags: %s", bin, bytes.TrimSpace(help))
	}
	return page{
		name: "gpuaas-node-agent", summary: "GPUaaS node agent of a MAAS-deployed GPU host",
		synopsis: []string{"gpuaas-node-agent [flags]"},
		sections: []section{
			{title: "description", text: "gpuaas-node-agent runs as the gpuaas-node-agent.service unit on a " +
				"GPU host that MAAS deployed. It enrolls with the region's maas-sidecar daemon using the " +
				"one-time token that cloud-init wrote, then long-polls for typed, signed tasks over mutual " +
				"TLS and runs them one at a time. It never runs a shell payload."},
			{title: "options", subs: []sub{{flags: flags}}},
			{title: "files", pre: "/etc/gpuaas-node-agent/config.yaml   configuration, written by cloud-init\n" +
				"/var/lib/gpuaas-node-agent/          key, certificate and task sequence"},
			{title: "see also", text: "maas-sidecar(1), systemctl(1)"},
		},
	}, nil
}
