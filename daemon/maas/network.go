package maas

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// NICs lists a machine's network interfaces with their subnet links.
func (c *Client) NICs(ctx context.Context, systemID string) ([]lifecycle.NIC, error) {
	if err := checkID("maas: interfaces", systemID); err != nil {
		return nil, err
	}
	var ws []wireInterface
	if err := c.do(ctx, request{op: "interfaces " + systemID, method: http.MethodGet, path: nodePath(systemID, "interfaces")}, &ws); err != nil {
		return nil, err
	}
	out := make([]lifecycle.NIC, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.nic())
	}
	return out, nil
}

// Link links an interface to a subnet (op=link_subnet) and returns the
// interface. Mode is auto, dhcp, static or link_up; subnetID may be 0
// only for link_up; ip is for static (MAAS picks one when empty).
func (c *Client) Link(ctx context.Context, systemID string, nicID int, mode string, subnetID int, ip string) (lifecycle.NIC, error) {
	op := fmt.Sprintf("link_subnet %s/%d", systemID, nicID)
	switch mode {
	case LinkAuto, LinkDHCP, LinkStatic, LinkUp:
	default:
		return lifecycle.NIC{}, lifecycle.Invalid("maas: "+op, "mode", "must be auto, dhcp, static or link_up, not %q", mode)
	}
	v := url.Values{"mode": {strings.ToUpper(mode)}}
	if subnetID != 0 {
		v.Set("subnet", strconv.Itoa(subnetID))
	}
	if ip != "" {
		v.Set("ip_address", ip)
	}
	return c.nicOp(ctx, op, systemID, nicID, "link_subnet", v)
}

// Unlink removes the link with linkID from an interface.
func (c *Client) Unlink(ctx context.Context, systemID string, nicID, linkID int) (lifecycle.NIC, error) {
	op := fmt.Sprintf("unlink_subnet %s/%d", systemID, nicID)
	return c.nicOp(ctx, op, systemID, nicID, "unlink_subnet", url.Values{"id": {strconv.Itoa(linkID)}})
}

func (c *Client) nicOp(ctx context.Context, op, sid string, id int, maasOp string, v url.Values) (lifecycle.NIC, error) {
	if err := checkID("maas: "+op, sid); err != nil {
		return lifecycle.NIC{}, err
	}
	var w wireInterface
	err := c.do(ctx, request{op: op, method: http.MethodPost, path: nodePath(sid, "interfaces") + strconv.Itoa(id) + "/",
		maasOp: maasOp, params: v}, &w)
	return w.nic(), err
}
