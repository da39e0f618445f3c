//go:build integration

package debtest

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// glibcSym matches a versioned dynamic symbol in readelf's output, such
// as "__libc_start_main@GLIBC_2.34 (3)".
var glibcSym = regexp.MustCompile(`@GLIBC_([0-9]+(?:\.[0-9]+)+)`)

// maxGlibcSymbol is the highest GLIBC_ version among the binary's dynamic
// symbols ("" when it has none, as a static binary), read with
// `readelf --dyn-syms`.
func maxGlibcSymbol(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command("readelf", "--dyn-syms", "--wide", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("readelf --dyn-syms %s: %v\n%s", bin, err, out)
	}
	max := ""
	for _, m := range glibcSym.FindAllStringSubmatch(string(out), -1) {
		if max == "" || versionLess(max, m[1]) {
			max = m[1]
		}
	}
	return max
}

// versionLess compares dotted numeric versions ("2.31" < "2.34").
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// TestMaxGlibcSymbolReadsDynamicBinary: the symbol check sees the GLIBC_
// versions of a dynamically linked binary (the host's dpkg-deb), so an
// empty answer for the packages means static, not unread.
func TestMaxGlibcSymbolReadsDynamicBinary(t *testing.T) {
	bin, err := exec.LookPath("dpkg-deb")
	if err != nil {
		t.Fatal(err)
	}
	if got := maxGlibcSymbol(t, bin); got == "" || versionLess(got, "2.2.5") {
		t.Errorf("highest GLIBC_ version of %s = %q, want at least 2.2.5", bin, got)
	}
}
