package maassim

import (
	"net/http"
	"strings"
)

var signalStatuses = map[string]bool{"OK": true, "FAILED": true, "WORKING": true, "COMMISSIONING": true,
	"TESTING": true, "DEPLOYING": true, "RELEASING": true, "APPLYING_NETCONF": true, "INSTALLING": true}

// serveMetadata is the part of MAAS's metadata API the hardware-sync timer
// uses: POST /MAAS/metadata/<version>/ op=signal (or the status/<sid>
// form), signed with the machine token. A signal from a deployed machine
// with enable_hw_sync stamps last_sync, as metadataserver/api.py does.
func (s *Sim) serveMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		errorf(http.StatusMethodNotAllowed, "Method not allowed.").write(w)
		return
	}
	if err := parseParams(r); err != nil {
		badRequest("Bad Request: %v", err).write(w)
		return
	}
	isStatus := strings.HasPrefix(r.URL.Path, "/MAAS/metadata/status/")
	if !isStatus && r.PostForm.Get("op") != "signal" && r.URL.Query().Get("op") != "signal" {
		badRequest("Unrecognised signature: method=POST op=%s", r.PostForm.Get("op")).write(w)
		return
	}
	s.mu.Lock()
	aerr := s.signalLocked(r, isStatus)
	s.mu.Unlock()
	if aerr != nil {
		aerr.write(w)
		return
	}
	_, _ = w.Write([]byte("OK"))
}

func (s *Sim) signalLocked(r *http.Request, isStatus bool) *apiError {
	who, aerr := s.authenticateLocked(r)
	if aerr != nil {
		return aerr
	}
	m := who.machine
	if m == nil {
		return forbidden("Not authenticated as a known node.")
	}
	if isStatus && !strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/"+m.systemID) {
		return forbidden("Not authenticated as the node being signalled.")
	}
	if st := r.PostForm.Get("status"); !isStatus && !signalStatuses[st] {
		return badRequest("Unknown status code: %s", st)
	}
	if m.status == StatusDeployed && m.enableHWSync {
		m.lastSync = s.now()
		s.emit(m, "machine.updated")
	}
	return nil
}
