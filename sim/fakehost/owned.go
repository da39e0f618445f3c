package fakehost

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// DefaultSharedDir is where OwnedFiles leaves model weights.
const DefaultSharedDir = "/data/shared"

// ownedFiles writes the user's files outside the scratch paths and gives
// them to the user's UID and GID.
func (h Host) ownedFiles(u account, shared string) ([]string, error) {
	if shared == "" {
		shared = DefaultSharedDir
	}
	gid, _ := strconv.Atoi(u.gid)
	files := []string{"/dev/shm/vllm-kv-" + u.name, filepath.Join(shared, u.name+"-weights.safetensors"),
		"/var/spool/cron/crontabs/" + u.name}
	for _, p := range files {
		if err := writeFile(h.Root, p, "tenant data\n"); err != nil {
			return nil, err
		}
		if err := os.Lchown(h.path(p), u.uid, gid); err != nil {
			return nil, fmt.Errorf("chown %s to uid %d: %w", p, u.uid, err)
		}
	}
	return files, nil
}

// swapGPU gives GPU i a new UUID and serial (NVIDIA or AMD).
func (h Host) swapGPU(i int) error {
	s, err := fakesmi.Load(h.Root)
	if err != nil {
		return err
	}
	switch {
	case s.NVIDIA != nil && i < len(s.NVIDIA.GPUs):
		g := &s.NVIDIA.GPUs[i]
		g.UUID, g.Serial = "GPU-5a9ed000-0000-4f1e-9a3c-"+fmt.Sprintf("%012x", 0xfeed0000+i), strconv.Itoa(1659990000001+i)
	case s.AMD != nil && i < len(s.AMD.GPUs):
		g := &s.AMD.GPUs[i]
		g.UUID, g.Serial = fmt.Sprintf("f7ff74a1-0000-1000-80f4-5a9ed000%04x", i), fmt.Sprintf("692259999%03d", i)
	default:
		return fmt.Errorf("swap_gpu %d: the host has no such GPU", i+1)
	}
	return fakesmi.Save(h.Root, s)
}
