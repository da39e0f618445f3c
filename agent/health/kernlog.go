package health

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
)

// KernLog is the kernel log file read on a host without journalctl.
const KernLog = "/var/log/kern.log"

// maxKernRead bounds what one pass reads of the kernel log file.
const maxKernRead = 16 << 20

// kernFollower reads the kernel log from where its previous read ended:
// journalctl's cursor, or an offset into KernLog.
type kernFollower struct {
	cursor string // journalctl's, "" before the first read that had entries
	offset int64  // into KernLog, reset to 0 when the file is another or shrank (rotated)
	file   os.FileInfo
}

const cursorPrefix = "-- cursor: "

// read returns the kernel log text since the previous read and what it
// read ("journalctl -k ...", "/var/log/kern.log from byte N").
func (k *kernFollower) read(ctx context.Context, exec task.Exec, root hostroot.Root) (string, string, error) {
	args := []string{"-k", "--no-pager", "-o", "short-iso", "--show-cursor", "-b"}
	source := "journalctl -k, this boot"
	if k.cursor != "" {
		args = append(args[:5], "--after-cursor="+k.cursor)
		source = "journalctl -k after the last cursor"
	}
	out, err := exec.Exec(ctx, "journalctl", args...)
	if errors.Is(err, task.ErrNotFound) {
		return k.readFile(root)
	}
	if err != nil {
		return "", source, fmt.Errorf("%s: %w", source, err)
	}
	text := string(out)
	if i := strings.LastIndex(text, cursorPrefix); i >= 0 {
		k.cursor = strings.TrimSpace(text[i+len(cursorPrefix):])
		text = text[:i]
	}
	return text, source, nil
}

func (k *kernFollower) readFile(root hostroot.Root) (string, string, error) {
	f, err := os.Open(root.Path(KernLog))
	if err != nil {
		return "", KernLog, fmt.Errorf("%s: %w", KernLog, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", KernLog, fmt.Errorf("%s: %w", KernLog, err)
	}
	if fi.Size() < k.offset || (k.file != nil && !os.SameFile(k.file, fi)) {
		k.offset = 0
	}
	k.file = fi
	source := fmt.Sprintf("%s from byte %d", KernLog, k.offset)
	b, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, k.offset, fi.Size()-k.offset), maxKernRead))
	if err != nil {
		return "", source, fmt.Errorf("%s: %w", source, err)
	}
	if i := strings.LastIndexByte(string(b), '\n'); i >= 0 {
		b = b[:i+1] // a line still being written is read whole next pass
	} else {
		b = nil
	}
	k.offset += int64(len(b))
	return string(b), source, nil
}
