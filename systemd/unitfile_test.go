package systemd

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// directive is one Key=Value line of a unit file.
type directive struct{ key, value string }

// readUnit returns the directives of a unit file in order, without
// comments, blank lines and section headers.
func readUnit(t *testing.T, path string) []directive {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []directive
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: not a Key=Value line: %q", path, line)
		}
		out = append(out, directive{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// values returns every value of key, in order.
func values(ds []directive, key string) []string {
	var out []string
	for _, d := range ds {
		if d.key == key {
			out = append(out, d.value)
		}
	}
	return out
}
