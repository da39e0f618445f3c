package metrics

import (
	"bytes"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// family is one metric and its series, written in the Prometheus text
// exposition format (version 0.0.4), the format node_exporter's textfile
// collector reads. The agent writes a handful of series, so it keeps
// them itself rather than linking a metrics library: the client library
// and the protobuf runtime it brings cost the agent more resident memory
// than everything it does while idle.
type family struct {
	name, help, kind string // kind: "counter" or "gauge"
	labels           []string
	order            []int              // label indexes by label name, the order they are written in
	series           map[string]*sample // by label values joined with labelSep
}

type sample struct {
	values []string
	v      float64
}

// labelSep joins label values into a series key; it is no valid UTF-8,
// so no value holds it.
const labelSep = "\xff"

func newFamily(kind, name, help string, labels ...string) *family {
	f := &family{name: name, help: help, kind: kind, labels: labels, series: map[string]*sample{}}
	for i := range labels {
		f.order = append(f.order, i)
	}
	slices.SortFunc(f.order, func(a, b int) int { return strings.Compare(labels[a], labels[b]) })
	if len(labels) == 0 {
		f.at() // an unlabelled metric exists from the start, at 0
	}
	return f
}

// at is the series with these label values (one per label), created at
// 0 if new.
func (f *family) at(values ...string) *sample {
	if len(values) != len(f.labels) {
		panic("metrics: " + f.name + " takes " + strconv.Itoa(len(f.labels)) + " label values")
	}
	key := strings.Join(values, labelSep)
	s := f.series[key]
	if s == nil {
		s = &sample{values: slices.Clone(values)}
		f.series[key] = s
	}
	return s
}

// write appends the family to b as Prometheus's own client writes it:
// HELP, TYPE, then its series, labels in name order, series in the order
// of their label values.
func (f *family) write(b *bytes.Buffer) {
	b.WriteString("# HELP " + f.name + " " + escape(f.help, false) + "\n")
	b.WriteString("# TYPE " + f.name + " " + f.kind + "\n")
	all := slices.Collect(maps.Values(f.series))
	slices.SortFunc(all, func(x, y *sample) int {
		for _, i := range f.order {
			if c := strings.Compare(x.values[i], y.values[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	for _, s := range all {
		b.WriteString(f.name)
		for n, i := range f.order {
			sep := ","
			if n == 0 {
				sep = "{"
			}
			b.WriteString(sep + f.labels[i] + `="` + escape(s.values[i], true) + `"`)
		}
		if len(f.labels) > 0 {
			b.WriteByte('}')
		}
		b.WriteString(" " + formatValue(s.v) + "\n")
	}
}

// The escapes of the text format: a HELP text's backslashes and
// newlines, and a label value's double quotes as well.
var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escape(s string, quote bool) string {
	if quote {
		return valueEscaper.Replace(s)
	}
	return helpEscaper.Replace(s)
}

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
