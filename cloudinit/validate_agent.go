package cloudinit

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
)

var ifaceRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$`)

func (a Agent) validate() error {
	if err := fetchURL("agent.package_url", "agent.package_sha256", a.PackageURL, a.PackageSHA256); err != nil {
		return err
	}
	if err := httpURL("agent.api_url", a.APIURL, true); err != nil {
		return err
	}
	if err := match("agent.enrollment_token", a.EnrollmentToken, tokenRe); err != nil {
		return err
	}
	if err := certificates(a.CABundlePEM); err != nil {
		return &FieldError{"agent.ca_bundle_pem", err.Error()}
	}
	if err := ed25519PublicKey(a.SigningPublicKey); err != nil {
		return &FieldError{"agent.signing_public_key", err.Error()}
	}
	if d := a.HealthInterval; d != 0 && (d < time.Second || d > 24*time.Hour) {
		return &FieldError{"agent.health_interval", fmt.Sprintf("%s is not a duration of 1s to 24h", d)}
	}
	return nil
}

// fetchURL checks a download: https, or http pinned by a sha256 digest.
func fetchURL(field, shaField, raw, sum string) error {
	if sum != "" && !sha256Re.MatchString(sum) {
		return &FieldError{shaField, "must be 64 lowercase hex digits"}
	}
	return httpURL(field, raw, sum == "")
}

// httpURL checks an absolute http(s) URL safe to put into a unit file.
func httpURL(field, raw string, httpsOnly bool) error {
	if raw == "" {
		return &FieldError{field, "is required"}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || strings.ContainsAny(raw, " \t\r\n'\"\\%$`") {
		return &FieldError{field, "must be an absolute http(s) URL without credentials, quotes or spaces"}
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && httpsOnly:
		return &FieldError{field, "must be https (plain http is allowed only for a download pinned by sha256)"}
	case u.Scheme == "http":
	default:
		return &FieldError{field, fmt.Sprintf("scheme %q is not http(s)", u.Scheme)}
	}
	return nil
}

// certificates checks that s is one or more PEM certificates and nothing else.
func certificates(s string) error {
	rest, n := []byte(s), 0
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return fmt.Errorf("holds a %q block, want only CERTIFICATE", b.Type)
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			return fmt.Errorf("certificate %d: %w", n+1, err)
		}
		n++
	}
	if n == 0 || strings.TrimSpace(string(rest)) != "" {
		return fmt.Errorf("must be PEM certificates only")
	}
	return nil
}

// ed25519PublicKey checks that s is one PEM PKIX ed25519 public key.
func ed25519PublicKey(s string) error {
	b, rest := pem.Decode([]byte(s))
	if b == nil || b.Type != "PUBLIC KEY" || strings.TrimSpace(string(rest)) != "" {
		return fmt.Errorf("must be one PEM PUBLIC KEY block")
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return fmt.Errorf("parse: %w", err)
	}
	if _, ok := k.(ed25519.PublicKey); !ok {
		return fmt.Errorf("is a %T, want ed25519", k)
	}
	return nil
}

// validateRoCE checks every assignment: a Linux interface name and the
// node's IPv4 address with a /31 prefix, each used once.
func validateRoCE(as []RoCEAssignment) error {
	ifaces, addrs := map[string]bool{}, map[netip.Addr]bool{}
	for i, a := range as {
		f := fmt.Sprintf("roce[%d].", i)
		if err := match(f+"interface", a.Interface, ifaceRe); err != nil {
			return err
		}
		p, err := netip.ParsePrefix(a.IPv4CIDR)
		if err != nil || !p.Addr().Is4() || p.Bits() != 31 {
			return &FieldError{f + "ipv4_cidr", fmt.Sprintf("%q is not an IPv4 address with a /31 prefix", a.IPv4CIDR)}
		}
		if ifaces[a.Interface] {
			return &FieldError{f + "interface", a.Interface + " is assigned twice"}
		}
		if addrs[p.Addr()] {
			return &FieldError{f + "ipv4_cidr", p.Addr().String() + " is assigned twice"}
		}
		ifaces[a.Interface], addrs[p.Addr()] = true, true
	}
	return nil
}
