package cli

import (
	"flag"
	"strconv"
	"strings"
)

// shapeFlags adds --gpus and --region, when given, to the request body.
func shapeFlags(fs *flag.FlagSet, body map[string]any, gpus int, region string) error {
	if given(fs, "gpus") {
		if gpus <= 0 {
			return usagef("--gpus %d is not a positive GPU count", gpus)
		}
		body["gpus_total"] = gpus
	}
	if given(fs, "region") {
		if strings.TrimSpace(region) == "" {
			return usagef("--region %q is blank; leave it out for the site's region", region)
		}
		body["region_code"] = region
	}
	return nil
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// csvShape reads a row's optional gpus_total and region_code into n.
func csvShape(path string, r row, n *node) error {
	if v := r.fields["gpus_total"]; v != "" {
		g, err := strconv.Atoi(v)
		if err != nil || g <= 0 {
			return usagef("%s:%d: gpus_total %q is not a positive GPU count", path, r.line, v)
		}
		n.GPUsTotal = &g
	}
	n.RegionCode = r.fields["region_code"]
	return nil
}
