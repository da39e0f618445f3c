package drives

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// IDCtrl is the part of `nvme id-ctrl DEV -o json` (nvme-cli 2.x) the
// erase reads: identity and the erase capabilities.
type IDCtrl struct {
	SN      string `json:"sn"`
	MN      string `json:"mn"`
	FR      string `json:"fr"`
	OACS    int    `json:"oacs"`    // bit 1: Format NVM
	FNA     int    `json:"fna"`     // bit 0: format is controller-wide; 1: secure erase is; 2: crypto erase supported
	SANICAP int    `json:"sanicap"` // bit 0: crypto erase; 1: block erase; 2: overwrite
}

// ParseIDCtrl parses id-ctrl's JSON.
func ParseIDCtrl(b []byte) (IDCtrl, error) {
	var c IDCtrl
	if err := json.Unmarshal(b, &c); err != nil {
		return IDCtrl{}, fmt.Errorf("nvme id-ctrl: not the JSON of nvme-cli: %w", err)
	}
	return c, nil
}

// Erase methods, in the order they are tried.
const (
	SanitizeCrypto    = "sanitize-crypto"
	SanitizeBlock     = "sanitize-block"
	FormatCrypto      = "format-crypto"
	FormatUserData    = "format-user-data"
	SanitizeOverwrite = "sanitize-overwrite"
)

// Methods lists the secure erases the controller offers, best first.
// exclusive says every namespace of the controller is a tenant drive:
// without it, a sanitize (always controller-wide) and a format that FNA
// says is controller-wide are left out.
func (c IDCtrl) Methods(exclusive bool) []string {
	var out []string
	add := func(ok bool, m string) {
		if ok {
			out = append(out, m)
		}
	}
	formatOK := c.OACS&2 != 0 && (exclusive || c.FNA&3 == 0)
	add(exclusive && c.SANICAP&1 != 0, SanitizeCrypto)
	add(exclusive && c.SANICAP&2 != 0, SanitizeBlock)
	add(formatOK && c.FNA&4 != 0, FormatCrypto)
	add(formatOK, FormatUserData)
	add(exclusive && c.SANICAP&4 != 0, SanitizeOverwrite)
	return out
}

// Args returns the nvme-cli arguments of method m on controller ctrl
// (/dev/nvme1) and namespace ns (/dev/nvme1n1).
func Args(m, ctrl, ns string) []string {
	switch m {
	case SanitizeCrypto:
		return []string{"sanitize", ctrl, "--sanact=4"}
	case SanitizeBlock:
		return []string{"sanitize", ctrl, "--sanact=2"}
	case SanitizeOverwrite:
		return []string{"sanitize", ctrl, "--sanact=3"}
	case FormatCrypto:
		return []string{"format", ns, "--ses=2", "--force"}
	case FormatUserData:
		return []string{"format", ns, "--ses=1", "--force"}
	}
	return nil
}

// Sanitize status (SSTAT bits 2:0).
const (
	SanitizeNever      = 0
	SanitizeDone       = 1
	SanitizeInProgress = 2
	SanitizeFailed     = 3
	SanitizeDoneNoDeal = 4
)

// SanitizeLog is `nvme sanitize-log DEV -o json` (nvme-cli 2.x): one
// object keyed by the device name, whose sstat is an object with a
// "status" string "(N) text" (older versions print sstat as a number).
type SanitizeLog struct {
	Progress int // SPROG: 65535 when no sanitize is running
	Status   int
}

var statusNum = regexp.MustCompile(`^\((\d+)\)`)

// ParseSanitizeLog parses sanitize-log's JSON.
func ParseSanitizeLog(b []byte) (SanitizeLog, error) {
	var byDev map[string]struct {
		SProg int             `json:"sprog"`
		SStat json.RawMessage `json:"sstat"`
	}
	if err := json.Unmarshal(b, &byDev); err != nil || len(byDev) != 1 {
		return SanitizeLog{}, fmt.Errorf("nvme sanitize-log: not the JSON of nvme-cli (one object per device)")
	}
	for _, d := range byDev {
		st, err := sstat(d.SStat)
		return SanitizeLog{Progress: d.SProg, Status: st}, err
	}
	panic("unreachable")
}

func sstat(raw json.RawMessage) (int, error) {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n & 7, nil
	}
	var o struct {
		Status json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return 0, fmt.Errorf("nvme sanitize-log: sstat is neither a number nor an object")
	}
	if json.Unmarshal(o.Status, &n) == nil {
		return n & 7, nil
	}
	var s string
	_ = json.Unmarshal(o.Status, &s)
	m := statusNum.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("nvme sanitize-log: sstat status %q has no code", s)
	}
	n, _ = strconv.Atoi(m[1])
	return n, nil
}
