package maas

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nics decodes an interface_set: nil when it is empty or null.
func (r *jreader) nics() ([]lifecycle.NIC, error) {
	var out []lifecycle.NIC
	err := r.array(func() error {
		out = append(out, lifecycle.NIC{})
		return r.nic(&out[len(out)-1])
	})
	return out, err
}

func (r *jreader) nic(n *lifecycle.NIC) error {
	return r.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "id":
			n.ID, err = r.int()
		case "name":
			n.Name, err = r.str()
		case "type":
			n.Type, err = r.str()
		case "mac_address":
			n.MAC, err = r.str()
		case "vlan":
			n.VLANVID, err = r.intField("vid")
		case "links":
			n.Links = nil
			err = r.array(func() error {
				n.Links = append(n.Links, lifecycle.NICLink{})
				return r.link(&n.Links[len(n.Links)-1])
			})
		default:
			err = r.skip()
		}
		return err
	})
}

func (r *jreader) link(l *lifecycle.NICLink) error {
	return r.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "id":
			l.ID, err = r.int()
		case "mode":
			l.Mode, err = r.str()
		case "ip_address":
			l.IP, err = r.str()
		case "subnet":
			err = r.object(func(key []byte) error {
				switch string(key) {
				case "id":
					l.SubnetID, err = r.int()
				case "cidr":
					l.SubnetCIDR, err = r.str()
				default:
					return r.skip()
				}
				return err
			})
		default:
			err = r.skip()
		}
		return err
	})
}

// strs reads an array of strings; null and [] are an empty, non-nil slice.
func (r *jreader) strs() ([]string, error) {
	out := []string{}
	err := r.array(func() error {
		s, err := r.str()
		out = append(out, s)
		return err
	})
	return out, err
}

// intField reads an object (or null) and returns its integer member
// name, 0 when absent.
func (r *jreader) intField(name string) (int, error) {
	var n int
	err := r.object(func(key []byte) error {
		if string(key) != name {
			return r.skip()
		}
		var err error
		n, err = r.int()
		return err
	})
	return n, err
}

// strField reads an object (or null) and returns its string member
// name, "" when absent or null.
func (r *jreader) strField(name string) (string, error) {
	var s string
	err := r.object(func(key []byte) error {
		if string(key) != name {
			return r.skip()
		}
		var err error
		s, err = r.str()
		return err
	})
	return s, err
}

// time reads a MAAS datetime as parseMAASTime does; nil for null.
func (r *jreader) time() (*time.Time, error) {
	s, err := r.str()
	if err != nil {
		return nil, err
	}
	return parseMAASTime(&s), nil
}
