package config

import "net/url"

// Console configures the operator console served under /console/ on the
// admin listener.
type Console struct {
	// PublicOrigin is the scheme://host[:port] browsers reach the console
	// at when a reverse proxy stands in front of it: a form's Origin must
	// name it (instead of the request's Host), and an https origin makes
	// the session cookie Secure though the proxy speaks plain HTTP.
	// Empty: the request's own Host and TLS decide.
	PublicOrigin string `yaml:"public_origin"`
}

// validate checks public_origin is empty or an http(s) origin alone.
func (c Console) validate() error {
	if c.PublicOrigin == "" {
		return nil
	}
	u, err := url.Parse(c.PublicOrigin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return invalid("console.public_origin", "%q is not an origin like https://console.example:8443", c.PublicOrigin)
	}
	return nil
}
