package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// regiondConfPaths are where a MAAS region controller keeps its local
// configuration, in the order they are tried: the Debian package's, then
// the snap's. The file is YAML; maas_url is the region's URL, such as
// http://10.0.0.1:5240/MAAS, which is what a site's api_base_url holds.
var regiondConfPaths = []string{"/etc/maas/regiond.conf", "/var/snap/maas/current/regiond.conf"}

// localMAASURL returns maas_url from the first regiond.conf found under
// root ("" is "/"), and the host path it came from. Errors name the file.
func localMAASURL(root string) (string, string, error) {
	for _, p := range regiondConfPaths {
		b, err := os.ReadFile(filepath.Join(root, p))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return "", p, fmt.Errorf("read %s: %w", p, err)
		}
		u, err := parseRegiondConf(p, b)
		return u, p, err
	}
	return "", "", fmt.Errorf("no MAAS region configuration: neither %s is there (is this a MAAS region controller?)",
		strings.Join(regiondConfPaths, " nor "))
}

// parseRegiondConf reads maas_url from regiond.conf content b (path p).
func parseRegiondConf(p string, b []byte) (string, error) {
	var conf struct {
		MAASURL any `yaml:"maas_url"`
	}
	if err := yaml.Unmarshal(b, &conf); err != nil {
		return "", fmt.Errorf("%s is not valid YAML: %w", p, err)
	}
	s, ok := conf.MAASURL.(string)
	switch {
	case conf.MAASURL == nil:
		return "", fmt.Errorf("%s has no maas_url", p)
	case !ok || strings.TrimSpace(s) == "":
		return "", fmt.Errorf("%s: maas_url is not a URL string", p)
	}
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s: maas_url %q is not an http(s) URL such as http://10.0.0.1:5240/MAAS", p, s)
	}
	return s, nil
}
