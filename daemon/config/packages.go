package config

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// unsafeURLChars are refused in a package URL (as the cloud-init renderer
// refuses them).
const unsafeURLChars = " \t\r\n'\"\\%$`"

// AgentPackage is where one architecture's gpuaas-node-agent .deb is
// published: https, or plain http pinned by its SHA-256.
type AgentPackage struct {
	URL    string `yaml:"url"`
	SHA256 string `yaml:"sha256"`
}

// LegacyArch is the architecture that agent.package_url and
// agent.package_sha256 configure.
const LegacyArch = "amd64"

var (
	debArch   = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// PackageSet returns the configured agent packages by Debian architecture:
// agent.packages plus, as its amd64 entry, agent.package_url and
// agent.package_sha256. The result is a fresh map.
func (a Agent) PackageSet() map[string]AgentPackage {
	out := make(map[string]AgentPackage, len(a.Packages)+1)
	for arch, p := range a.Packages {
		out[arch] = p
	}
	if a.PackageURL != "" || a.PackageSHA256 != "" {
		out[LegacyArch] = AgentPackage{URL: a.PackageURL, SHA256: a.PackageSHA256}
	}
	return out
}

// validatePackages checks both forms of the agent packages, naming the
// offending key (agent.packages.arm64.url, agent.package_url).
func (a Agent) validatePackages() error {
	legacy := a.PackageURL != "" || a.PackageSHA256 != ""
	if _, ok := a.Packages[LegacyArch]; ok && legacy {
		return invalid("agent.package_url", "conflicts with agent.packages.%s: agent.package_url and agent.package_sha256 "+
			"are the older form of that entry; keep one", LegacyArch)
	}
	if legacy {
		if err := (AgentPackage{a.PackageURL, a.PackageSHA256}).validate("agent.package_url", "agent.package_sha256"); err != nil {
			return err
		}
	}
	arches := make([]string, 0, len(a.Packages))
	for arch := range a.Packages {
		arches = append(arches, arch)
	}
	sort.Strings(arches)
	for _, arch := range arches {
		key := "agent.packages." + arch
		if !debArch.MatchString(arch) {
			return invalid(key, "%q is not a Debian architecture name such as amd64 or arm64", arch)
		}
		if err := a.Packages[arch].validate(key+".url", key+".sha256"); err != nil {
			return err
		}
	}
	return nil
}

func (p AgentPackage) validate(urlKey, shaKey string) error {
	if p.URL == "" {
		return invalid(urlKey, "is required (%s alone locates nothing)", shaKey)
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return invalid(urlKey, "%q is not an http(s) URL", p.URL)
	}
	// cloud-init puts the URL into a shell command line.
	if u.User != nil || strings.ContainsAny(p.URL, unsafeURLChars) {
		return invalid(urlKey, "%q must not carry credentials, quotes, spaces, %% or $", p.URL)
	}
	if u.Scheme == "http" && p.SHA256 == "" {
		return invalid(shaKey, "required when %s is plain http", urlKey)
	}
	if p.SHA256 != "" && !sha256Hex.MatchString(p.SHA256) {
		return invalid(shaKey, "%q is not 64 lowercase hex digits", p.SHA256)
	}
	return nil
}
