package pgnotify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// RegiondConfPaths are where a MAAS region controller keeps regiond.conf:
// the Debian package's, then the snap's.
var RegiondConfPaths = []string{"/etc/maas/regiond.conf", "/var/snap/maas/current/regiond.conf"}

const opRegiond = "pgnotify: regiond.conf"

// regiondConf holds the database keys of regiond.conf as YAML nodes, so
// that a value of the wrong type is reported without being quoted.
type regiondConf struct {
	Host yaml.Node `yaml:"database_host"`
	Port yaml.Node `yaml:"database_port"`
	Name yaml.Node `yaml:"database_name"`
	User yaml.Node `yaml:"database_user"`
	Pass yaml.Node `yaml:"database_pass"`
}

// readRegiond reads the first readable file of paths. A missing file is
// skipped; when none is readable the error names the first one that
// exists but cannot be read, else every path.
func readRegiond(paths []string) (target, string, error) {
	var firstErr error
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			if firstErr == nil {
				firstErr = lifecycle.Errorf(lifecycle.CodeInvalid, opRegiond, "read %s: %v", p, pathErr(err))
			}
			continue
		}
		return parseRegiond(p, b)
	}
	if firstErr != nil {
		return target{}, "", firstErr
	}
	return target{}, "", lifecycle.Errorf(lifecycle.CodeInvalid, opRegiond,
		"no regiond.conf: %s does not exist (is this a MAAS region controller?)", strings.Join(paths, " nor "))
}

func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseRegiond reads the database keys of regiond.conf content b (path
// p), with MAAS's defaults: localhost, 5432, maasdb, maas, no password.
func parseRegiond(p string, b []byte) (target, string, error) {
	var c regiondConf
	if err := yaml.Unmarshal(b, &c); err != nil {
		return target{}, "", lifecycle.Errorf(lifecycle.CodeInvalid, opRegiond, "%s is not valid YAML: %s", p, yamlLine(err))
	}
	bad := func(key, format string, args ...any) error {
		return lifecycle.Errorf(lifecycle.CodeInvalid, opRegiond, "%s: %s %s", p, key, fmt.Sprintf(format, args...))
	}
	str := func(n *yaml.Node, key, def string, empty bool) (string, error) {
		v, ok := scalar(n, def)
		switch {
		case !ok:
			return "", bad(key, "is not a string")
		case v == "" && !empty:
			return "", bad(key, "is empty")
		}
		return v, nil
	}
	host, err := str(&c.Host, "database_host", "localhost", false)
	if err != nil {
		return target{}, "", err
	}
	portS, ok := scalar(&c.Port, strconv.Itoa(defaultPort))
	port, perr := strconv.Atoi(strings.TrimSpace(portS))
	if !ok || perr != nil || port < 1 || port > 65535 {
		return target{}, "", bad("database_port", "is not a port number from 1 to 65535")
	}
	name, err := str(&c.Name, "database_name", "maasdb", false)
	if err != nil {
		return target{}, "", err
	}
	user, err := str(&c.User, "database_user", "maas", false)
	if err != nil {
		return target{}, "", err
	}
	pass, err := str(&c.Pass, "database_pass", "", true)
	if err != nil {
		return target{}, "", err
	}
	return newTarget(host, port, name, user), pass, nil
}

// scalar is a node's text: def when the key is absent or null, false when
// it is a map or a list.
func scalar(n *yaml.Node, def string) (string, bool) {
	switch {
	case n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null"):
		return def, true
	case n.Kind != yaml.ScalarNode:
		return "", false
	}
	return n.Value, true
}

// yamlLine is the YAML error without any quoted content: "line N" when
// the parser says where, else nothing more.
func yamlLine(err error) string {
	s := err.Error()
	if i := strings.Index(s, "line "); i >= 0 {
		j := i + len("line ")
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return "the parser stopped at " + s[i:j]
	}
	return "the parser stopped"
}
