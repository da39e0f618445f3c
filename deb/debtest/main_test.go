//go:build integration

package debtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// workDir holds the builds of this test binary; removed by TestMain.
var workDir string

func TestMain(m *testing.M) {
	for _, tool := range []string{"make", "dpkg-deb", "dpkg-shlibdeps", "lintian"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "debtest: %s is needed (hack/install-test-deps.sh installs lintian and dpkg-dev): %v\n", tool, err)
			os.Exit(1)
		}
	}
	var err error
	if workDir, err = os.MkdirTemp("", "debtest-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(workDir)
	os.Exit(code)
}

var (
	once  sync.Once
	built Packages
)

// packages returns the build every test inspects, made by the first
// test that asks.
func packages(t *testing.T) Packages {
	t.Helper()
	once.Do(func() { built = Build(t, filepath.Join(workDir, "a"), "") })
	if built.Daemon == "" {
		t.Fatal("the packages did not build (see the first test's failure)")
	}
	return built
}
