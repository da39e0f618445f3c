package maassim

import "encoding/base64"

// Boot is what a simulated host sees when its deployment ends and it boots
// the installed OS: the user_data it was deployed with (raw, as MAAS
// stores it, and base64-decoded when it decodes) and the machine token its
// hardware-sync timer signs with.
type Boot struct {
	SystemID, Hostname string
	RawUserData        string
	UserData           []byte // nil when RawUserData is not base64
	EnableHWSync       bool
	ConsumerKey        string
	TokenKey           string
	TokenSecret        string
}

// boot runs the OnBoot hook outside the lock, on its own goroutine, which
// Run waits for. Called with s.mu held; once Run has stopped, machines no
// longer boot.
func (s *Sim) boot(m *machine) {
	if s.onBoot == nil || s.stopped {
		return
	}
	b := Boot{SystemID: m.systemID, Hostname: m.hostname, RawUserData: m.userData, EnableHWSync: m.enableHWSync}
	if dec, err := base64.StdEncoding.DecodeString(m.userData); err == nil {
		b.UserData = dec
	}
	if m.token != nil {
		b.ConsumerKey, b.TokenKey, b.TokenSecret = m.token.consumerKey, m.token.key, m.token.secret
	}
	s.boots.Go(func() { s.onBoot(b) })
}

// stopBooting makes later deployments end without a boot and waits for the
// OnBoot hooks already running.
func (s *Sim) stopBooting() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.boots.Wait()
}
