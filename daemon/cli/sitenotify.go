package cli

import "flag"

// notifyFlags declares --notify-source and --notify-dsn. The returned
// function gives the site's notify object when either flag was given
// (it replaces the site's whole), else nil. A DSN alone implies source
// dsn.
func (s *session) notifyFlags() func(given map[string]bool) map[string]string {
	src := s.fs.String("notify-source", "", "where the daemon LISTENs for the site's MAAS machine changes: dsn, regiond_conf, or \"\" for none (replaces the site's notify settings)")
	dsn := s.fs.String("notify-dsn", "", "postgres://USER@HOST:PORT/DATABASE?sslmode=... of the region database, without a password (set that with site credentials --notify-db-password-file); implies --notify-source dsn")
	return func(given map[string]bool) map[string]string {
		if !given["notify-source"] && !given["notify-dsn"] {
			return nil
		}
		n := map[string]string{"source": *src}
		if *dsn != "" {
			n["dsn"] = *dsn
			if !given["notify-source"] {
				n["source"] = "dsn"
			}
		}
		return n
	}
}

// checkNotifySource refuses a --notify-source the daemon does not know,
// naming it, before anything is sent.
func (s *session) checkNotifySource() error {
	var bad error
	s.fs.Visit(func(f *flag.Flag) {
		if v := f.Value.String(); f.Name == "notify-source" && v != "" && v != "dsn" && v != "regiond_conf" {
			bad = usagef("--notify-source %q is not one of dsn, regiond_conf, \"\" (none)", v)
		}
	})
	return bad
}
