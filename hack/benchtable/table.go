package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// row is one measure as printed.
type row struct{ measure, target, now, ratio, met string }

// rows evaluates every measure against the results.
func rows(r results) []row {
	out := make([]row, 0, len(measures))
	for _, m := range measures {
		op := "≥"
		if m.AtMost {
			op = "≤"
		}
		w := row{measure: m.Name, target: op + " " + num(m.Target) + " " + m.Show, now: "not run", ratio: "-", met: "-"}
		if v, ok := r.value(m.Bench, m.Unit); ok {
			if m.Scale != 0 {
				v *= m.Scale
			}
			ok := v >= m.Target
			if m.AtMost {
				ok = v <= m.Target
			}
			w.now, w.ratio, w.met = num(v)+" "+m.Show, strconv.FormatFloat(v/m.Target, 'f', 2, 64), map[bool]string{true: "yes", false: "no"}[ok]
		}
		out = append(out, w)
	}
	return out
}

// print writes the rows as an aligned table.
func printTable(w io.Writer, rs []row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\ttarget\tnow\tratio\tmet")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.measure, r.target, r.now, r.ratio, r.met)
	}
	return tw.Flush()
}

// num formats v with thousands separators and at most three significant
// decimals below 100.
func num(v float64) string {
	prec := 0
	switch a := max(v, -v); {
	case a < 10:
		prec = 2
	case a < 100:
		prec = 1
	}
	s := strconv.FormatFloat(v, 'f', prec, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	for i := len(intPart) - 3; i > 0 && intPart[i-1] != '-'; i -= 3 {
		intPart = intPart[:i] + "," + intPart[i:]
	}
	if frac != "" {
		return intPart + "." + frac
	}
	return intPart
}
