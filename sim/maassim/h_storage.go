package maassim

func (s *Sim) blockDevicesResource(sid string, rest []string) *resource {
	if len(rest) == 0 {
		return &resource{"blockdevices", map[string]handlerFunc{"GET ": func(c *call) (any, *apiError) {
			m, aerr := s.machineFor(sid, "Node")
			if aerr != nil {
				return nil, aerr
			}
			out := []jsonBlockDevice{}
			for _, d := range m.disks {
				out = append(out, renderDisk(m, d))
			}
			return out, nil
		}}}
	}
	if len(rest) != 1 {
		return nil
	}
	with := func(fn func(c *call, m *machine, d *disk) (any, *apiError)) handlerFunc {
		return func(c *call) (any, *apiError) {
			m, aerr := s.machineFor(sid, "Node")
			if aerr != nil {
				return nil, aerr
			}
			for _, d := range m.disks {
				if id, ok := atoi(rest[0]); ok && id == d.id {
					return fn(c, m, d)
				}
			}
			return nil, notFound("BlockDevice")
		}
	}
	return &resource{"blockdevice", map[string]handlerFunc{
		"GET ":               with(func(_ *call, m *machine, d *disk) (any, *apiError) { return renderDisk(m, d), nil }),
		"POST set_boot_disk": with(s.setBootDisk),
	}}
}

// setBootDisk is op=set_boot_disk: 200 "OK", only on Ready machines. The
// current layout is re-applied on the new boot disk, as MAAS does.
func (s *Sim) setBootDisk(_ *call, m *machine, d *disk) (any, *apiError) {
	if m.status != StatusReady {
		return nil, conflict("Cannot set as boot disk because the machine is not Ready.")
	}
	m.bootDisk = d.id
	if m.layout != "blank" {
		s.applyFlat(m)
	}
	return textResult("OK"), nil
}
