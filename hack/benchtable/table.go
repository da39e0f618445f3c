package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// row is one measure as printed.
type row struct{ measure, target, now, base, ratio, met string }

// rows evaluates every measure against the results.
func rows(r results) []row {
	out := make([]row, 0, len(measures))
	for _, m := range measures {
		out = append(out, evaluate(m, r))
	}
	return out
}

// evaluate is m's row: its figure, its baseline's, and its target (a
// multiple of the baseline's figure for a relative one).
func evaluate(m measure, r results) row {
	op := "≥"
	if m.AtMost {
		op = "≤"
	}
	w := row{measure: m.Name, target: op + " " + num(m.Target) + " " + m.Show, now: "not run", base: "-", ratio: "-", met: "-"}
	target, known := m.Target, true
	if m.Base.Bench != "" {
		bv, ok := m.scaled(r, m.Base.Bench, m.Base.Unit)
		w.base = m.Base.Name + ": not run"
		if ok {
			w.base = m.Base.Name + ": " + num(bv) + " " + m.Show
		}
		if m.Base.Relative {
			w.target = op + " " + strconv.FormatFloat(m.Target, 'f', -1, 64) + "× " + m.Base.Name
			target, known = m.Target*bv, ok
		}
	}
	v, ok := m.scaled(r, m.Bench, m.Unit)
	if !ok {
		return w
	}
	w.now = num(v) + " " + m.Show
	if !known || target == 0 {
		return w
	}
	met := v >= target
	if m.AtMost {
		met = v <= target
	}
	w.ratio, w.met = strconv.FormatFloat(v/target, 'f', 2, 64), map[bool]string{true: "yes", false: "no"}[met]
	return w
}

// scaled is the median of bench's unit, in m's Show units.
func (m measure) scaled(r results, bench, unit string) (float64, bool) {
	v, ok := r.value(bench, unit)
	if m.Scale != 0 {
		v *= m.Scale
	}
	return v, ok
}

// print writes the rows as an aligned table. Ratio is now over target.
func printTable(w io.Writer, rs []row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\ttarget\tnow\tsame-run baseline\tratio\tmet")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.measure, r.target, r.now, r.base, r.ratio, r.met)
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
