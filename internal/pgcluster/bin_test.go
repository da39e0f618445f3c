package pgcluster

import "testing"

// Debian's version directories sort by number, newest first: 15 before
// 9.6, whatever their names' order as strings.
func TestVersionOrder(t *testing.T) {
	dirs := []string{"/usr/lib/postgresql/9.6/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/x/bin"}
	newestFirst(dirs)
	want := []string{"/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/9.6/bin", "/usr/lib/postgresql/x/bin"}
	for i := range want {
		if dirs[i] != want[i] {
			t.Fatalf("order %v, want %v", dirs, want)
		}
	}
}
