package config

import (
	"net/url"
	"time"
)

// Events is where the lifecycle events of the outbox go (the GPU cloud's
// control plane). Without a URL they are recorded in the store only and
// stay undelivered until one is configured.
type Events struct {
	// URL receives each event as a signed JSON POST (http or https).
	URL string `yaml:"url"`
	// SecretFile holds the HMAC-SHA256 key of the signature header; it is
	// read at every delivery, so a rotation needs no restart.
	SecretFile string `yaml:"secret_file"`
	// Timeout bounds one delivery attempt.
	Timeout time.Duration `yaml:"timeout"`
	// Retention is how long a delivered event is kept before it is
	// pruned; 0 keeps them all.
	Retention time.Duration `yaml:"retention"`
}

func defaultEvents() Events { return Events{Timeout: 10 * time.Second, Retention: 7 * 24 * time.Hour} }

func (e Events) validate() error {
	if err := positive(e.Timeout); err != "" {
		return invalid("events.timeout", "%s %s", e.Timeout, err)
	}
	if e.Retention < 0 {
		return invalid("events.retention", "%s is negative (0 keeps delivered events forever)", e.Retention)
	}
	if e.URL == "" {
		return nil
	}
	u, err := url.Parse(e.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return invalid("events.url", "%q is not an http(s) URL", e.URL)
	}
	if u.User != nil {
		return invalid("events.url", "must not carry credentials; the events are signed with events.secret_file")
	}
	if e.SecretFile == "" {
		return invalid("events.secret_file", "required when events.url is set (events are never sent unsigned)")
	}
	return nil
}
