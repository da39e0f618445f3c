package lifecycle

import (
	"net"
	"net/url"
	"strings"
)

// NotifySource says where the daemon finds a site's MAAS region database
// to LISTEN on its machine notifications (docs/operations.md, "Push from
// the region database").
type NotifySource string

// Notify sources. Off: no listener, the events cursor and webhooks only.
const (
	NotifyOff         NotifySource = ""
	NotifyDSN         NotifySource = "dsn"
	NotifyRegiondConf NotifySource = "regiond_conf"
)

// SiteNotify configures a site's LISTEN feed. The DSN never carries a
// password: it is read from Vault at NotifyDBPasswordVaultPath at each
// connect. With NotifyRegiondConf the daemon reads the local region's
// regiond.conf (paths from the daemon's config file) at each connect.
type SiteNotify struct {
	Source NotifySource `json:"source,omitempty"`
	// DSN is a postgres:// URL: user, host, port, database and TLS
	// parameters, no password. Only with NotifyDSN.
	DSN string `json:"dsn,omitempty"`
}

// Enabled reports whether the site has a listener configured.
func (n SiteNotify) Enabled() bool { return n.Source != NotifyOff }

// NotifyDBPasswordVaultPath is where the password of a site's LISTEN
// database role lives in Vault: {"password": "..."}.
func NotifyDBPasswordVaultPath(siteID string) string {
	return "kv/maas-sites/" + siteID + "/notify-db"
}

// PasswordTarget is where the listener sends the Vault-held password:
// user@host:port/database of the DSN with source dsn, and how that server
// is verified (sslmode, sslrootcert), "" for the other sources, which
// send none. A change of it needs the password proved again (the admin
// API's PATCH), so a stored password is never sent to a server it was not
// given for, nor to one verified less than when it was given.
func (n SiteNotify) PasswordTarget() string {
	if n.Source != NotifyDSN {
		return ""
	}
	u, err := url.Parse(n.DSN)
	if err != nil {
		return "?" + n.DSN
	}
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	q := u.Query()
	return u.User.Username() + "@" + net.JoinHostPort(strings.ToLower(u.Hostname()), port) + "/" + strings.Trim(u.Path, "/") +
		"?sslmode=" + q.Get("sslmode") + "&sslrootcert=" + q.Get("sslrootcert")
}
