package maassim

import (
	"net/http"
	"time"
)

func (s *Sim) ctlBMC(w http.ResponseWriter, r *http.Request) {
	b, ok := readCtl(w, r)
	if !ok {
		return
	}
	if !s.SetBMC(r.PathValue("addr"), time.Duration(b.DelayMS)*time.Millisecond, b.Dead) ||
		!s.SetBMCStuckOn(r.PathValue("addr"), b.StuckOn) {
		http.Error(w, "no simulated BMC at "+r.PathValue("addr"), http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Sim) ctlHost(w http.ResponseWriter, r *http.Request) {
	b, ok := readCtl(w, r)
	if !ok {
		return
	}
	if b.PowerAddr == "" {
		http.Error(w, "power_address is required", http.StatusBadRequest)
		return
	}
	arch, ok := normArch(b.Arch)
	if !ok {
		http.Error(w, "architecture must be amd64/generic or arm64/generic", http.StatusBadRequest)
		return
	}
	s.AddHost(HostSpec{PowerAddress: b.PowerAddr, PXEMAC: b.PXEMAC, NoBOSS: b.NoBOSS, Arch: arch})
	w.WriteHeader(http.StatusNoContent)
}

// ctlPXEBoot sets a host's boot device to PXE and powers it on, as an
// operator (or the sidecar's IPMI path) would to discover it.
func (s *Sim) ctlPXEBoot(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h, ok := s.hosts[r.PathValue("addr")]
	s.mu.Unlock()
	if !ok {
		http.Error(w, "no host at "+r.PathValue("addr"), http.StatusNotFound)
		return
	}
	err := h.bmc.SetBootDevice(r.Context(), BootPXE)
	if err == nil {
		err = h.bmc.SetPower(r.Context(), true)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Sim) ctlWebhooks(w http.ResponseWriter, r *http.Request) {
	b, ok := readCtl(w, r)
	if !ok {
		return
	}
	s.SetWebhooks(b.Targets, WebhookFaults{Drop: b.Drop, Duplicate: b.Duplicate, Reorder: b.Reorder,
		Delay: time.Duration(b.DelayMS) * time.Millisecond})
	w.WriteHeader(http.StatusNoContent)
}
