package admintoken

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// readFile returns the token in path, "" when the file does not exist. A
// file readable by others is tightened to 0600 (reported by fixedMode).
func readFile(path string) (token string, fixedMode bool, err error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if info.Mode().Perm() != 0o600 {
		if err := os.Chmod(path, 0o600); err != nil {
			return "", false, err
		}
		fixedMode = true
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false, err
	}
	token, err = parse(string(b))
	if err != nil {
		return "", false, fmt.Errorf("%s: content %w", path, err)
	}
	return token, fixedMode, nil
}

// writeFile atomically replaces path with token, mode 0600.
func writeFile(path, token string) error {
	return atomicfile.Write(path, []byte(token+"\n"), 0o600)
}
