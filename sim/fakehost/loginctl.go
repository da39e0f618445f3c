package fakehost

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// SessionPath is the host path logind keeps a logged-in user's state
// under (/run/systemd/users/<uid>); the residue injector writes it.
const SessionPath = "/run/systemd/users/"

// loginctl is systemd's loginctl, "terminate-user USER..." only: for each
// logged-in user it ends every process of the user (but stuck ones),
// removes the session state and unmounts /run/user/<uid>. It exits 1 for
// an unknown user or one that is not logged in.
func (h Host) loginctl(args []string, stderr io.Writer) int {
	if len(args) < 2 || args[0] != "terminate-user" {
		fmt.Fprintln(stderr, "loginctl: only terminate-user USER... is simulated")
		return 1
	}
	for _, who := range args[1:] {
		u, ok := h.lookup(who)
		if !ok {
			fmt.Fprintf(stderr, "Failed to look up user %s: No such process\n", who)
			return 1
		}
		uid := strconv.Itoa(u.uid)
		if _, err := os.Stat(h.path(SessionPath + uid)); err != nil {
			fmt.Fprintf(stderr, "Could not terminate user: User ID %s is not logged in or lingering\n", uid)
			return 1
		}
		for _, pid := range h.pidsOf(u.uid) {
			if !h.stuck(pid) {
				_ = os.RemoveAll(h.path(fmt.Sprintf("/proc/%d", pid)))
			}
		}
		_ = os.Remove(h.path(SessionPath + uid))
		lines, mounts, err := h.mountLines()
		if err != nil {
			continue
		}
		var keep []string
		for i, m := range mounts {
			if !strings.HasPrefix(m.Point+"/", "/run/user/"+uid+"/") {
				keep = append(keep, lines[i])
			}
		}
		_ = h.writeMounts(keep)
	}
	return 0
}
