package maassim

var layouts = map[string]bool{"flat": true, "lvm": true, "bcache": true, "vmfs6": true,
	"vmfs7": true, "custom": true, "blank": true}

// setStorageLayoutOp is op=set_storage_layout: only on Ready machines.
func (s *Sim) setStorageLayoutOp(c *call, m *machine) (any, *apiError) {
	if m.status != StatusReady {
		return nil, conflict("Cannot change the storage layout on a machine that is not Ready.")
	}
	l := c.params.Get("storage_layout")
	if !layouts[l] {
		return nil, invalid("storage_layout", "Select a valid choice. %s is not one of the available choices.", l)
	}
	if len(m.disks) == 0 {
		return nil, badRequest("Machine has no boot disk; cannot apply the %s layout.", l)
	}
	m.layout = l
	if l == "blank" {
		for _, d := range m.disks {
			d.partitions = nil
		}
	} else {
		s.applyFlat(m)
	}
	return s.renderMachine(m), nil
}

// getTokenOp is op=get_token (admin): the machine's NodeKey, or null.
func (s *Sim) getTokenOp(c *call, m *machine) (any, *apiError) {
	if aerr := adminOnly(c); aerr != nil {
		return nil, aerr
	}
	if m.token == nil {
		return jsonNull{}, nil
	}
	return map[string]string{"token_key": m.token.key, "token_secret": m.token.secret,
		"consumer_key": m.token.consumerKey}, nil
}
