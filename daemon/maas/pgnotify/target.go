package pgnotify

import (
	"net"
	"strconv"
	"time"
)

// Defaults of a connection target: MAAS's regiond.conf defaults
// (src/maasserver/config.py) and libpq's sslmode.
const (
	defaultPort           = 5432
	defaultSSLMode        = "prefer"
	defaultConnectTimeout = 10 * time.Second
	defaultAppName        = "maas-sidecar"
)

// target is a resolved connection target, without its password: what
// the DSN or regiond.conf says. Every connection setting comes from here,
// none from the environment (see connString).
type target struct {
	host     string // a name, an address, or a socket directory ("/...")
	port     int
	database string
	user     string
	sslmode  string
	// sslrootcert, sslcert and sslkey are file paths ("" for none).
	sslrootcert, sslcert, sslkey string
	connectTimeout               time.Duration
	appName                      string
}

func newTarget(host string, port int, database, user string) target {
	return target{host: host, port: port, database: database, user: user, sslmode: defaultSSLMode,
		connectTimeout: defaultConnectTimeout, appName: defaultAppName}
}

// addr names the server for messages: host:port, or the socket directory.
func (t target) addr() string {
	if len(t.host) > 0 && t.host[0] == '/' {
		return t.host + " (port " + strconv.Itoa(t.port) + ")"
	}
	return net.JoinHostPort(t.host, strconv.Itoa(t.port))
}
