package maassim

// machineResource is machines/{system_id}/ with its ops.
func (s *Sim) machineResource(sid string) *resource {
	with := func(fn func(c *call, m *machine) (any, *apiError)) handlerFunc {
		return func(c *call) (any, *apiError) {
			m, aerr := s.machineFor(sid, "Machine")
			if aerr != nil {
				return nil, aerr
			}
			return fn(c, m)
		}
	}
	return &resource{"machine", map[string]handlerFunc{
		"GET ":                    with(s.readMachine),
		"PUT ":                    with(s.updateMachine),
		"DELETE ":                 with(s.deleteMachineOp),
		"POST commission":         with(s.commissionOp),
		"POST deploy":             with(s.deployOp),
		"POST release":            with(s.releaseOp),
		"POST abort":              with(s.abortOp),
		"POST mark_broken":        with(s.markBrokenOp),
		"POST mark_fixed":         with(s.markFixedOp),
		"POST power_on":           with(s.powerOnOp),
		"POST power_off":          with(s.powerOffOp),
		"GET query_power_state":   with(s.queryPowerStateOp),
		"GET power_parameters":    with(func(_ *call, m *machine) (any, *apiError) { return m.power, nil }),
		"POST set_storage_layout": with(s.setStorageLayoutOp),
		"GET get_token":           with(s.getTokenOp),
	}}
}

func (s *Sim) readMachine(_ *call, m *machine) (any, *apiError) { return s.renderMachine(m), nil }

// updateMachine is PUT machines/{id}/ (AdminMachineForm, in any status):
// hostname, description, enable_hw_sync, power_type, power_parameters_*
// (merged into the current ones).
func (s *Sim) updateMachine(c *call, m *machine) (any, *apiError) {
	if aerr := adminOnly(c); aerr != nil {
		return nil, aerr
	}
	if hn, ok := c.params["hostname"]; ok && len(hn) > 0 && hn[0] != m.hostname {
		if hn[0] == "" || s.hostnameTaken(hn[0]) {
			return nil, invalid("hostname", "Node with this Hostname already exists.")
		}
		m.hostname = hn[0]
	}
	if d, ok := c.params["description"]; ok && len(d) > 0 {
		m.description = d[0]
	}
	if pt := c.params.Get("power_type"); pt != "" {
		if !powerTypes[pt] {
			return nil, invalid("power_type", "Select a valid choice. %s is not one of the available choices.", pt)
		}
		m.powerType = pt
	}
	if aerr := s.updateHWSync(c, m); aerr != nil {
		return nil, aerr
	}
	pp := powerParams(c)
	if addr := pp["power_address"]; addr != "" && (m.host == nil || addr != m.host.spec.PowerAddress) {
		m.host = s.hostLocked(HostSpec{PowerAddress: addr})
		m.host.enlisted = true
	}
	for k, v := range pp {
		m.power[k] = v
	}
	s.emit(m, "machine.updated")
	return s.renderMachine(m), nil
}

func (s *Sim) deleteMachineOp(_ *call, m *machine) (any, *apiError) {
	s.deleteMachine(m)
	return noContent{}, nil
}

func (s *Sim) commissionOp(c *call, m *machine) (any, *apiError) {
	var p commissionParams
	var aerr *apiError
	if p.enableSSH, aerr = boolParam(c, "enable_ssh", false); aerr != nil {
		return nil, aerr
	}
	if p.skipBMCConfig, aerr = boolParam(c, "skip_bmc_config", false); aerr != nil {
		return nil, aerr
	}
	for _, f := range []string{"skip_networking", "skip_storage"} {
		if _, aerr = boolParam(c, f, false); aerr != nil {
			return nil, aerr
		}
	}
	intents, aerr := s.startCommissioning(m, p)
	if aerr != nil {
		return nil, aerr
	}
	c.intents = append(c.intents, intents...)
	return s.renderMachine(m), nil
}
