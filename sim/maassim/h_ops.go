package maassim

import (
	"context"
	"strings"
)

var seriesAliases = map[string]string{"jammy": "jammy", "22.04": "jammy", "noble": "noble",
	"24.04": "noble", "focal": "focal", "20.04": "focal"}

// parseSeries resolves distro_series as MAAS does: jammy, ubuntu/jammy,
// 22.04, or custom/<image> for an uploaded image.
func (s *Sim) parseSeries(v string) (osystem, series string, aerr *apiError) {
	if v == "" {
		return "ubuntu", "jammy", nil
	}
	os, name, found := strings.Cut(v, "/")
	if !found {
		os, name = "ubuntu", v
	}
	if os == "ubuntu" && seriesAliases[name] != "" {
		return "ubuntu", seriesAliases[name], nil
	}
	if os == "custom" {
		for _, img := range s.opts.CustomImages {
			if img == name {
				return "custom", name, nil
			}
		}
	}
	return "", "", invalid("distro_series", "'%s' is not a valid distro_series.  It should be one of: 'ubuntu/jammy', 'ubuntu/noble', 'ubuntu/focal'%s.", v, customList(s.opts.CustomImages))
}

func customList(imgs []string) string {
	var b strings.Builder
	for _, i := range imgs {
		b.WriteString(", 'custom/" + i + "'")
	}
	return b.String()
}

func (s *Sim) deployOp(c *call, m *machine) (any, *apiError) {
	for _, f := range []string{"install_kvm", "register_vmhost", "install_rackd"} {
		if on, _ := boolParam(c, f, false); on {
			return nil, badRequest("Deploying a machine with %s is not supported by this MAAS.", f)
		}
	}
	var d deployParams
	var aerr *apiError
	if d.osystem, d.series, aerr = s.parseSeries(c.params.Get("distro_series")); aerr != nil {
		return nil, aerr
	}
	if d.hwSync, aerr = boolParam(c, "enable_hw_sync", false); aerr != nil {
		return nil, aerr
	}
	d.userData = c.params.Get("user_data")
	intents, aerr := s.startDeployment(m, d)
	if aerr != nil {
		return nil, aerr
	}
	c.intents = append(c.intents, intents...)
	return s.renderMachine(m), nil
}

func (s *Sim) releaseOp(c *call, m *machine) (any, *apiError) {
	var p releaseParams
	for name, dst := range map[string]*bool{"erase": &p.erase, "secure_erase": &p.secure,
		"quick_erase": &p.quick, "force": &p.force} {
		v, aerr := boolParam(c, name, false)
		if aerr != nil {
			return nil, aerr
		}
		*dst = v
	}
	p.comment = c.params.Get("comment")
	intents, aerr := s.startRelease(m, p)
	if aerr != nil {
		return nil, aerr
	}
	c.intents = append(c.intents, intents...)
	return s.renderMachine(m), nil
}

func (s *Sim) abortOp(c *call, m *machine) (any, *apiError) {
	intents, aerr := s.abort(m, c.params.Get("comment"))
	if aerr != nil {
		return nil, aerr
	}
	c.intents = append(c.intents, intents...)
	return s.renderMachine(m), nil
}

func (s *Sim) markBrokenOp(c *call, m *machine) (any, *apiError) {
	if m.owner != "" && m.owner != s.opts.Username {
		return nil, forbidden("You do not have permission to mark this machine broken.")
	}
	if aerr := s.markBroken(m, c.params.Get("comment")); aerr != nil {
		return nil, aerr
	}
	return s.renderMachine(m), nil
}

func (s *Sim) markFixedOp(_ *call, m *machine) (any, *apiError) {
	if aerr := s.markFixed(m); aerr != nil {
		return nil, aerr
	}
	return s.renderMachine(m), nil
}

func (s *Sim) powerOnOp(c *call, m *machine) (any, *apiError) {
	if m.owner == "" {
		return nil, conflict("Can't start node: it hasn't been allocated.")
	}
	s.event(m, levelDebug, "User powering up node", "")
	c.intents = append(c.intents, s.power(m, true, false))
	return s.renderMachine(m), nil
}

// powerOffOp is op=power_off (api/nodes.py): any stop_mode other than
// soft means hard; a machine MAAS cannot power off answers null.
func (s *Sim) powerOffOp(c *call, m *machine) (any, *apiError) {
	s.event(m, levelDebug, "User powering down node", s.requestDesc(c.params.Get("comment")))
	if m.host == nil {
		return jsonNull{}, nil
	}
	c.intents = append(c.intents, s.power(m, false, false))
	return s.renderMachine(m), nil
}

// queryPowerStateOp asks the BMC after the lock is released.
func (s *Sim) queryPowerStateOp(c *call, m *machine) (any, *apiError) {
	if m.host == nil {
		return map[string]string{"state": m.powerState}, nil
	}
	bmc, sid := m.host.bmc, m.systemID
	return deferred(func(ctx context.Context) (any, *apiError) {
		on, err := bmc.PowerState(ctx)
		s.mu.Lock()
		defer s.mu.Unlock()
		m, ok := s.machines[sid]
		if err != nil {
			if ok {
				m.powerState = "error"
				s.mirrorMark(m)
				s.event(m, levelWarning, "Failed to query node's BMC", err.Error())
			}
			return nil, unavailable("Power state could not be queried: %v", err)
		}
		state := map[bool]string{true: "on", false: "off"}[on]
		if ok {
			m.powerState = state
			s.mirrorMark(m)
		}
		return map[string]string{"state": state}, nil
	}), nil
}
