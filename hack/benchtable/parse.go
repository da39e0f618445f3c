package main

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// procSuffix is the -GOMAXPROCS suffix go test adds to a benchmark's name.
var procSuffix = regexp.MustCompile(`-\d+$`)

// results are the metrics of every benchmark line read: benchmark name,
// then unit, then each value reported (one per -count).
type results map[string]map[string][]float64

// add records one line when it is a benchmark result: the name, the
// iteration count, then value-unit pairs. It reports whether the line is
// a failure (FAIL or --- FAIL).
func (r results) add(line string) (failed bool) {
	if strings.HasPrefix(line, "FAIL") || strings.HasPrefix(strings.TrimSpace(line), "--- FAIL") {
		return true
	}
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return false
	}
	if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
		return false
	}
	name := procSuffix.ReplaceAllString(f[0], "")
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return false
		}
		if r[name] == nil {
			r[name] = map[string][]float64{}
		}
		r[name][f[i+1]] = append(r[name][f[i+1]], v)
	}
	return false
}

// value is the median of a benchmark's metric over its runs.
func (r results) value(bench, unit string) (float64, bool) {
	vs := append([]float64(nil), r[bench][unit]...)
	if len(vs) == 0 {
		return 0, false
	}
	sort.Float64s(vs)
	return vs[len(vs)/2], true
}
