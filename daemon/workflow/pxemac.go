package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// varPXEMac is the MAC of the bound machine's boot interface (seed 001
// §8.2: observed, internal). It is the highest-priority key of the power
// credential overrides (§3.2.1).
const varPXEMac = "pxe_mac"

// bindPXEMac records the boot interface MAC of the machine the run just
// bound and, when it is new to the run, chooses the power credentials
// again so that a pxe_mac override is used for the BMC work from here on.
func (d Deps) bindPXEMac(ctx context.Context, c *runner.Context, m lifecycle.Machine) error {
	if m.BootMAC == "" || m.BootMAC == c.Var(varPXEMac) {
		return nil
	}
	prev := c.Var(varPXEMac)
	c.SetVar(varPXEMac, m.BootMAC)
	c.Detail(varPXEMac, m.BootMAC)
	msg, err := d.choosePower(ctx, c)
	if err != nil {
		// A failed attempt keeps its vars: forget the MAC so that the next
		// attempt chooses the credentials again (Vault back, say).
		c.SetVar(varPXEMac, prev)
		return err
	}
	c.Detail("power_credentials", msg)
	return nil
}

// choosePower picks the BMC credential path by the override order
// (pxe_mac, ipmi_ip, hostname, site default) and checks that the secret
// is readable; only the path and the override id are kept in the run.
func (d Deps) choosePower(ctx context.Context, c *runner.Context) (string, error) {
	site, err := d.Store.GetSite(ctx, c.Run.SiteID)
	if err != nil {
		return "", err
	}
	ovr, err := d.Store.ListPowerOverrides(ctx, site.ID)
	if err != nil {
		return "", err
	}
	sel := lifecycle.SelectPowerCredentials(site.DefaultPowerCredsVaultPath, ovr,
		lifecycle.NodeKeys{IPMIIP: c.Run.IPMIIP, Hostname: c.Run.Hostname, PXEMac: c.Var(varPXEMac)})
	if _, err := d.bmc(ctx, sel.VaultPath, c.Run.IPMIIP); err != nil {
		return "", err
	}
	c.SetVar(varPowerPath, sel.VaultPath)
	c.SetVar(varPowerOverride, "")
	if sel.Override == nil {
		return "site default power credentials", nil
	}
	c.SetVar(varPowerOverride, sel.Override.ID)
	return "override by " + string(sel.Override.SelectorType), nil
}
