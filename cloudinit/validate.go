package cloudinit

import (
	"fmt"
	"regexp"
	"strings"
)

// FieldError is a Params value the renderer refuses. Field is the dotted
// path of the value, such as "agent.api_url" or "roce[1].ipv4_cidr".
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return "cloudinit: " + e.Field + ": " + e.Msg }

var (
	nodeIDRe   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	userRe     = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)
	systemIDRe = regexp.MustCompile(`^[a-z0-9]{1,64}$`)
	versionRe  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)
	sha256Re   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	tokenRe    = regexp.MustCompile(`^[\x21-\x7e]{1,512}$`) // printable, no spaces
	spanRe     = regexp.MustCompile(`^([0-9]+(ms|s|sec|m|min|h|hr|d|w))+$`)
)

// Validate checks p and returns a *FieldError naming the first bad field.
func (p Params) Validate() error {
	checks := []func() error{
		func() error { return match("node_id", p.NodeID, nodeIDRe) },
		p.validateSiteBundle,
		p.validateDeployUser,
		p.Agent.validate,
		p.HardwareSync.validate,
		p.Policy.validate,
		func() error { return validateRoCE(p.RoCE) },
		func() error { return validateUpstreamDNS(p.UpstreamDNS) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (p Params) validateSiteBundle() error {
	b := p.SiteBundle
	if b == nil {
		return nil
	}
	if err := match("site_bundle.version", b.Version, versionRe); err != nil {
		return err
	}
	return fetchURL("site_bundle.url", "site_bundle.sha256", b.URL, b.SHA256)
}

func (p Params) validateDeployUser() error {
	u := p.DeployUser
	if err := match("deploy_user.name", u.Name, userRe); err != nil {
		return err
	}
	if u.Name == "root" {
		return &FieldError{"deploy_user.name", "must not be root"}
	}
	if u.Password == "" {
		return &FieldError{"deploy_user.password", "is required"}
	}
	return nil
}

func (h HardwareSync) validate() error {
	if err := httpURL("hardware_sync.rack_url", h.RackURL, false); err != nil {
		return err
	}
	if err := match("hardware_sync.system_id", h.SystemID, systemIDRe); err != nil {
		return err
	}
	if !h.hasToken() {
		return h.validateInterval() // no token yet: the agent seeds it later
	}
	for _, f := range []struct{ name, v string }{
		{"consumer_key", h.ConsumerKey}, {"token_key", h.TokenKey}, {"token_secret", h.TokenSecret},
	} {
		if err := match("hardware_sync."+f.name, f.v, tokenRe); err != nil {
			return err
		}
	}
	return h.validateInterval()
}

func (h HardwareSync) validateInterval() error {
	if h.Interval != "" {
		return match("hardware_sync.interval", h.Interval, spanRe)
	}
	return nil
}

func (p Policy) validate() error {
	switch p.ShareFSType {
	case "", "ext4", "xfs":
	default:
		return &FieldError{"policy.share_fs_type", fmt.Sprintf("%q is not ext4 or xfs", p.ShareFSType)}
	}
	if p.ForceShareDisks && !p.InitShareDisks {
		return &FieldError{"policy.force_share_disks", "needs policy.init_share_disks"}
	}
	return nil
}

// match checks v against re; the message never repeats v, which may be a
// secret.
func match(field, v string, re *regexp.Regexp) error {
	if strings.TrimSpace(v) == "" {
		return &FieldError{field, "is required"}
	}
	if !re.MatchString(v) {
		return &FieldError{field, "does not match " + re.String()}
	}
	return nil
}
