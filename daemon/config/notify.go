package config

import (
	"path/filepath"
	"time"
)

// Notify configures the LISTEN feed on sites' MAAS region databases
// (a site's notify settings say whether it has one).
type Notify struct {
	// RegiondConf are the regiond.conf files a site with notify.source
	// regiond_conf reads its database settings from, the first that
	// exists winning: the deb's, then the snap's.
	RegiondConf []string `yaml:"regiond_conf"`
	// MinBackoff and MaxBackoff bound the listener's wait between
	// reconnects (doubling, with jitter).
	MinBackoff time.Duration `yaml:"min_backoff"`
	MaxBackoff time.Duration `yaml:"max_backoff"`
}

// maxNotifyBackoff caps notify.max_backoff: notifications sent while the
// listener is down are lost until it reconnects and catches up.
const maxNotifyBackoff = 5 * time.Minute

func defaultNotify() Notify {
	return Notify{RegiondConf: []string{"/etc/maas/regiond.conf", "/var/snap/maas/current/regiond.conf"},
		MinBackoff: 500 * time.Millisecond, MaxBackoff: 30 * time.Second}
}

func (n Notify) validate() error {
	if len(n.RegiondConf) == 0 {
		return invalid("notify.regiond_conf", "must list at least one path")
	}
	for i, p := range n.RegiondConf {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return invalid("notify.regiond_conf", "[%d] %q is not a clean absolute path", i, p)
		}
	}
	if err := positive(n.MinBackoff); err != "" {
		return invalid("notify.min_backoff", "%s %s", n.MinBackoff, err)
	}
	if err := positive(n.MaxBackoff); err != "" {
		return invalid("notify.max_backoff", "%s %s", n.MaxBackoff, err)
	}
	if n.MinBackoff > n.MaxBackoff {
		return invalid("notify.min_backoff", "%s is over notify.max_backoff (%s)", n.MinBackoff, n.MaxBackoff)
	}
	if n.MaxBackoff > maxNotifyBackoff {
		return invalid("notify.max_backoff", "%s is over 5m; notifications are lost while the listener is down", n.MaxBackoff)
	}
	return nil
}
