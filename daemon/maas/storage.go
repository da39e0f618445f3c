package maas

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func nodePath(sid, kind string) string { return "nodes/" + url.PathEscape(sid) + "/" + kind + "/" }

// Disks lists a machine's physical disks (partitions, RAID and other
// virtual block devices left out).
func (c *Client) Disks(ctx context.Context, systemID string) ([]lifecycle.Disk, error) {
	if err := checkID("maas: block devices", systemID); err != nil {
		return nil, err
	}
	var ws []wireDisk
	err := c.do(ctx, request{op: "block devices " + systemID, method: http.MethodGet, path: nodePath(systemID, "blockdevices")}, &ws)
	if err != nil {
		return nil, err
	}
	out := make([]lifecycle.Disk, 0, len(ws))
	for _, w := range ws {
		if w.Type == "physical" || w.Type == "" {
			out = append(out, w.disk())
		}
	}
	return out, nil
}

// SetBootDisk makes a physical disk the boot disk of a Ready machine.
func (c *Client) SetBootDisk(ctx context.Context, systemID string, deviceID int) error {
	if err := checkID("maas: set_boot_disk", systemID); err != nil {
		return err
	}
	return c.do(ctx, request{op: fmt.Sprintf("set_boot_disk %s/%d", systemID, deviceID), method: http.MethodPost,
		path: nodePath(systemID, "blockdevices") + strconv.Itoa(deviceID) + "/", maasOp: "set_boot_disk"}, nil)
}
