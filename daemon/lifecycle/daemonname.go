package lifecycle

import (
	"errors"
	"strings"
)

// CheckDaemonName checks the name a daemon holds site leases under (the
// daemon_name setting, a site's preferred_daemon): at most 64 letters,
// digits, '-', '_' and '.'. The empty name passes (it means "none" or
// "the host's name", as the caller decides).
func CheckDaemonName(name string) error {
	if len(name) > 64 {
		return errors.New("is longer than 64 characters")
	}
	if strings.ContainsFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.", r))
	}) {
		return errors.New("may hold only letters, digits, '-', '_' and '.'")
	}
	return nil
}
