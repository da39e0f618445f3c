package fakesmi

import (
	"slices"
	"strings"
)

// args is a parsed nvidia-smi command line.
type args struct {
	raw           []string
	query, apps   string
	formatOptions []string
	ids           []string
}

func parseArgs(raw []string) args {
	a := args{raw: raw}
	for i, s := range raw {
		switch {
		case strings.HasPrefix(s, "--query-gpu="):
			a.query = strings.TrimPrefix(s, "--query-gpu=")
		case strings.HasPrefix(s, "--query-compute-apps="):
			a.apps = strings.TrimPrefix(s, "--query-compute-apps=")
		case strings.HasPrefix(s, "--format="):
			a.formatOptions = strings.Split(strings.TrimPrefix(s, "--format="), ",")
		case (s == "-i" || s == "--id") && i+1 < len(raw):
			a.ids = strings.Split(raw[i+1], ",")
		case strings.HasPrefix(s, "--id="):
			a.ids = strings.Split(strings.TrimPrefix(s, "--id="), ",")
		}
	}
	return a
}

func (a args) has(flag string) bool   { return slices.Contains(a.raw, flag) }
func (a args) format(opt string) bool { return slices.Contains(a.formatOptions, opt) }
func (a args) val(flag string) string {
	i := slices.Index(a.raw, flag)
	if i < 0 || i+1 >= len(a.raw) {
		return ""
	}
	return a.raw[i+1]
}
