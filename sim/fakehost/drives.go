package fakehost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Drive is a simulated NVMe namespace: a sparse file at /dev/<Name>, its
// /sys/block entry, and its controller's id-ctrl answer for the fake
// nvme tool. Parts are partition names with their MAJ:MIN.
type Drive struct {
	Name, Serial, Model string
	Dev                 string // MAJ:MIN
	SizeMiB             int64
	Parts               map[string]string
	// SANICAP, FNA and OACS are id-ctrl's erase capabilities.
	SANICAP, FNA, OACS int
}

// DefaultDrives are a GPU host's NVMe drives: the boot disk (its
// partitions are BaseMounts' / and /boot/efi) and two tenant data drives
// that offer crypto erase through sanitize and format.
var DefaultDrives = []Drive{
	{Name: "nvme0n1", Serial: "S6BOOT0001", Model: "SAMSUNG MZ1L2960HCJR-00A07", Dev: "259:0", SizeMiB: 64,
		Parts: map[string]string{"nvme0n1p1": "259:1", "nvme0n1p2": "259:2"}, SANICAP: 3, FNA: 4, OACS: 0x5f},
	{Name: "nvme1n1", Serial: "S6DATA0001", Model: "SAMSUNG MZQL27T6HBLA-00A07", Dev: "259:3", SizeMiB: 64,
		SANICAP: 3, FNA: 4, OACS: 0x5f},
	{Name: "nvme2n1", Serial: "S6DATA0002", Model: "SAMSUNG MZQL27T6HBLA-00A07", Dev: "259:4", SizeMiB: 64,
		SANICAP: 3, FNA: 4, OACS: 0x5f},
}

// nvmeState is where the fake nvme tool keeps a controller's state.
func nvmeState(ctrl string) string { return filepath.Join("/var/lib/fakehost/nvme", ctrl) }

// installDrives lays out the drives under root; existing device files
// keep their bytes (a reboot keeps the disks).
func installDrives(root string, drives []Drive) error {
	for _, d := range drives {
		sys := filepath.Join(root, "sys/block", d.Name)
		files := map[string]string{"dev": d.Dev, "size": strconv.FormatInt(d.SizeMiB<<11, 10),
			"device/serial": d.Serial, "device/model": d.Model}
		for p, dev := range d.Parts {
			files[p+"/dev"], files[p+"/partition"] = dev, "1"
			if err := link(root, dev, d.Name+"/"+p); err != nil {
				return err
			}
		}
		for f, v := range files {
			if err := put(filepath.Join(sys, f), v+"\n"); err != nil {
				return err
			}
		}
		if err := link(root, d.Dev, d.Name); err != nil {
			return err
		}
		if err := device(filepath.Join(root, "dev", d.Name), d.SizeMiB<<20); err != nil {
			return err
		}
		ctrl := d.Name[:len(d.Name)-2]
		id, _ := json.Marshal(map[string]any{"vid": 5197, "sn": d.Serial, "mn": d.Model, "fr": "GDC5902Q",
			"oacs": d.OACS, "fna": d.FNA, "sanicap": d.SANICAP, "nn": 1})
		if err := put(filepath.Join(root, nvmeState(ctrl), "id-ctrl.json"), string(id)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// link makes /sys/dev/block/MAJ:MIN point at the device's sysfs dir.
func link(root, dev, rel string) error {
	p := filepath.Join(root, "sys/dev/block", dev)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	_ = os.Remove(p)
	if err := os.Symlink("../../block/"+rel, p); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	return nil
}

func device(p string, size int64) error {
	if fi, err := os.Stat(p); err == nil && fi.Size() == size {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	return nil
}

func put(p, content string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	return nil
}
