package cloudinit

import (
	"crypto/rand"
	"fmt"
	"io"
)

// Renderer renders user-data. Rand supplies the password salt; nil means
// crypto/rand. Tests inject a fixed reader to get byte-identical output.
type Renderer struct {
	Rand io.Reader
}

// Render validates p and returns the multipart MIME user-data (DESIGN.md
// §8), ready for MAAS's deploy user_data after base64 encoding. A bad
// parameter gives a *FieldError.
func (r Renderer) Render(p Params) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	salt := r.Rand
	if salt == nil {
		salt = rand.Reader
	}
	parts, err := layers(p, salt)
	if err != nil {
		return nil, fmt.Errorf("cloudinit: render node %s: %w", p.NodeID, err)
	}
	out, err := multipartMIME(parts)
	if err != nil {
		return nil, fmt.Errorf("cloudinit: render node %s: %w", p.NodeID, err)
	}
	return out, nil
}

// layers returns the parts in DESIGN.md §8 order, leaving out the ones
// the parameters and policy do not ask for.
func layers(p Params, salt io.Reader) ([]part, error) {
	var parts []part
	if p.SiteBundle != nil {
		parts = append(parts, sitePart(*p.SiteBundle))
	}
	if len(p.UpstreamDNS) > 0 {
		parts = append(parts, dnsPart(p.UpstreamDNS))
	}
	u, err := userPart(p.DeployUser, salt)
	if err != nil {
		return nil, err
	}
	a, err := agentPart(p.NodeID, p.Agent)
	if err != nil {
		return nil, err
	}
	h, err := hwSyncPart(p.HardwareSync)
	if err != nil {
		return nil, err
	}
	parts = append(parts, u, a, h)
	if p.Policy.InitShareDisks {
		parts = append(parts, sharePart(p.Policy))
	}
	if p.Policy.EnablePhase2RoCE && len(p.RoCE) > 0 {
		r, err := rocePart(p.RoCE)
		if err != nil {
			return nil, err
		}
		parts = append(parts, r)
	}
	return parts, nil
}
