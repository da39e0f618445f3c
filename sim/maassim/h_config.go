package maassim

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The config items the simulator keeps (a few of MAAS's CONFIG_ITEMS),
// with MAAS's defaults; hardware_sync_interval's default follows
// Options.SyncInterval.
func defaultConfig(syncInterval int) map[string]string {
	return map[string]string{
		"maas_name": "maas-sim", "default_osystem": "ubuntu", "default_distro_series": "noble",
		"hardware_sync_interval": spanOf(syncInterval),
	}
}

// spanOf writes seconds as MAAS writes its default ("15m" for 900).
func spanOf(seconds int) string {
	if seconds%60 == 0 {
		return strconv.Itoa(seconds/60) + "m"
	}
	return strconv.Itoa(seconds) + "s"
}

// maasResource is maas/: op=get_config (any user) and op=set_config
// (admin), as api/maas.py answers them.
func (s *Sim) maasResource() *resource {
	return &resource{"maas", map[string]handlerFunc{"GET get_config": s.getConfig, "POST set_config": s.setConfig}}
}

// getConfig answers the value JSON-encoded (a string for the items kept).
func (s *Sim) getConfig(c *call) (any, *apiError) {
	name, ok := c.params["name"]
	if !ok || len(name) == 0 {
		return nil, badRequest("No provided name!")
	}
	v, aerr := s.configItem(name[0])
	if aerr != nil {
		return nil, aerr
	}
	return v, nil
}

// setConfig validates value with the item's form field and answers 200
// "OK" (piston's rc.ALL_OK).
func (s *Sim) setConfig(c *call) (any, *apiError) {
	if aerr := adminOnly(c); aerr != nil {
		return nil, aerr
	}
	name, ok := c.params["name"]
	if !ok || len(name) == 0 {
		return nil, badRequest("No provided name!")
	}
	value, ok := c.params["value"]
	if !ok || len(value) == 0 {
		return nil, badRequest("No provided value!")
	}
	if _, aerr := s.configItem(name[0]); aerr != nil {
		return nil, aerr
	}
	if name[0] == "hardware_sync_interval" {
		if _, err := systemdSeconds(value[0]); err != nil {
			return nil, invalid(name[0], "value is not a valid interval: %s, only 'h|hr|hour|hours, m|min|minute|minutes, s|sec|second|seconds' are valid units", value[0])
		}
	}
	s.config[name[0]] = value[0]
	return textResult("OK"), nil
}

// configItem is a kept item's value, or MAAS's 400 for any other name.
func (s *Sim) configItem(name string) (string, *apiError) {
	v, ok := s.config[name]
	if !ok {
		names := make([]string, 0, len(s.config))
		for n := range s.config {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", &apiError{status: http.StatusBadRequest, fields: map[string][]string{name: {fmt.Sprintf(
			"%s is not a valid config setting (valid settings are: %s).", name, strings.Join(names, ", "))}}}
	}
	return v, nil
}

// systemdRE is MAAS's _duration_re (maasserver/utils/converters.py).
var systemdRE = regexp.MustCompile(`^((?P<hours>\d+?)(\s?(hour(s?)|hr|h))\s?)?((?P<minutes>\d+?)(\s?(minute(s?)|min|m))\s?)?((?P<seconds>\d+?)(\s?(second(s?)|sec|s))\s?)?`)

// systemdSeconds is MAAS's parse_systemd_interval: the seconds of a
// time span matched from the start of v.
func systemdSeconds(v string) (int, error) {
	m := systemdRE.FindStringSubmatch(v)
	if m == nil || m[0] == "" {
		return 0, fmt.Errorf("value is not a valid interval")
	}
	total := 0
	for unit, mult := range map[string]int{"hours": 3600, "minutes": 60, "seconds": 1} {
		if g := m[systemdRE.SubexpIndex(unit)]; g != "" {
			n, _ := strconv.Atoi(g)
			total += n * mult
		}
	}
	return total, nil
}

// configSyncInterval is hardware_sync_interval in seconds: what a machine
// takes as sync_interval when hardware sync is enabled on it.
func (s *Sim) configSyncInterval() int {
	n, err := systemdSeconds(s.config["hardware_sync_interval"])
	if err != nil || n == 0 {
		return s.opts.SyncInterval
	}
	return n
}
