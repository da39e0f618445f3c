package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FileName is the agent's file in the textfile collector directory.
const FileName = "gpuaas_node_agent.prom"

// fileMode lets node_exporter, which runs as its own user, read the file
// whatever the agent's umask (its unit sets UMask=0077).
const fileMode = 0o644

// WriteFile writes the metrics, stamped with now, to dir/FileName: a
// hidden temporary file in dir (node_exporter reads only *.prom) renamed
// over the old one. On error the old file stays as it was.
func (m *Metrics) WriteFile(dir string, now time.Time) error {
	var buf bytes.Buffer
	m.mu.Lock()
	m.wrote.at().v = seconds(now)
	for _, f := range m.all {
		f.write(&buf)
	}
	m.mu.Unlock()
	return replace(filepath.Join(dir, FileName), buf.Bytes())
}

// replace writes b to a temporary file beside path and renames it over
// path, removing the temporary file when anything fails.
func replace(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("metrics: write %s: %w", path, cause(err))
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(fileMode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("metrics: write %s: %w", path, cause(err))
	}
	return nil
}

// cause drops the temporary file's random name from a path error, so
// that one failure reads the same at every attempt (it is logged once).
func cause(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	case errors.As(err, &le):
		return fmt.Errorf("%s: %w", le.Op, le.Err)
	}
	return err
}
