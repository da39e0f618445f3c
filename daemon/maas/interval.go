package maas

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// systemdInterval is MAAS's grammar for hardware_sync_interval
// (maasserver/utils/converters.py _duration_re): hours, minutes and
// seconds in that order, each optional, matched from the start of the
// value as Python's re.match does.
var systemdInterval = regexp.MustCompile(`^((?P<hours>\d+?)(\s?(hour(s?)|hr|h))\s?)?((?P<minutes>\d+?)(\s?(minute(s?)|min|m))\s?)?((?P<seconds>\d+?)(\s?(second(s?)|sec|s))\s?)?`)

// parseInterval reads a hardware_sync_interval value the way MAAS's
// parse_systemd_interval does ("15m", "1h 30min", "90s").
func parseInterval(v string) (time.Duration, error) {
	m := systemdInterval.FindStringSubmatch(v)
	if m == nil || m[0] == "" {
		return 0, fmt.Errorf("%q is not a systemd time span", v)
	}
	var d time.Duration
	for unit, mult := range map[string]time.Duration{"hours": time.Hour, "minutes": time.Minute, "seconds": time.Second} {
		if s := m[systemdInterval.SubexpIndex(unit)]; s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return 0, fmt.Errorf("%q is not a systemd time span", v)
			}
			d += time.Duration(n) * mult
		}
	}
	return d, nil
}

// formatInterval writes d (whole seconds) in the grammar MAAS accepts,
// such as "15m" or "1h30m".
func formatInterval(d time.Duration) string {
	d = d.Truncate(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	out := ""
	if h > 0 {
		out += strconv.Itoa(h) + "h"
	}
	if m > 0 {
		out += strconv.Itoa(m) + "m"
	}
	if s > 0 || out == "" {
		out += strconv.Itoa(s) + "s"
	}
	return out
}
