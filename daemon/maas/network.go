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

// Interfaces lists a machine's network interfaces.
func (c *Client) Interfaces(ctx context.Context, systemID string) ([]Interface, error) {
	if err := checkID("maas: interfaces", systemID); err != nil {
		return nil, err
	}
	var ws []wireInterface
	if err := c.do(ctx, request{op: "interfaces " + systemID, method: http.MethodGet, path: nodePath(systemID, "interfaces")}, &ws); err != nil {
		return nil, err
	}
	out := make([]Interface, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.iface())
	}
	return out, nil
}

// LinkRequest is op=link_subnet's parameters. SubnetID may be 0 only for
// LinkUp; IPAddress is for LinkStatic (MAAS picks one when empty).
type LinkRequest struct {
	Mode           LinkMode
	SubnetID       int
	IPAddress      string
	DefaultGateway bool
	Force          bool
}

// LinkSubnet links an interface to a subnet and returns the interface.
func (c *Client) LinkSubnet(ctx context.Context, systemID string, ifaceID int, l LinkRequest) (Interface, error) {
	op := fmt.Sprintf("link_subnet %s/%d", systemID, ifaceID)
	switch l.Mode {
	case LinkAuto, LinkDHCP, LinkStatic, LinkUp:
	default:
		return Interface{}, lifecycle.Invalid("maas: "+op, "mode", "must be auto, dhcp, static or link_up, not %q", l.Mode)
	}
	v := url.Values{"mode": {strings.ToUpper(string(l.Mode))}}
	if l.SubnetID != 0 {
		v.Set("subnet", strconv.Itoa(l.SubnetID))
	}
	if l.IPAddress != "" {
		v.Set("ip_address", l.IPAddress)
	}
	flag(v, "default_gateway", l.DefaultGateway)
	flag(v, "force", l.Force)
	return c.ifaceOp(ctx, op, systemID, ifaceID, "link_subnet", v)
}

// UnlinkSubnet removes the link with linkID from an interface.
func (c *Client) UnlinkSubnet(ctx context.Context, systemID string, ifaceID, linkID int) (Interface, error) {
	op := fmt.Sprintf("unlink_subnet %s/%d", systemID, ifaceID)
	return c.ifaceOp(ctx, op, systemID, ifaceID, "unlink_subnet", url.Values{"id": {strconv.Itoa(linkID)}})
}

func (c *Client) ifaceOp(ctx context.Context, op, sid string, id int, maasOp string, v url.Values) (Interface, error) {
	if err := checkID("maas: "+op, sid); err != nil {
		return Interface{}, err
	}
	var w wireInterface
	err := c.do(ctx, request{op: op, method: http.MethodPost, path: nodePath(sid, "interfaces") + strconv.Itoa(id) + "/",
		maasOp: maasOp, params: v}, &w)
	return w.iface(), err
}
