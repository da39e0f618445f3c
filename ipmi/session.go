package ipmi

import (
	"context"
	"strconv"
	"time"

	"github.com/bmc-toolbox/bmclib/v2"
)

// do runs fn against t's BMC under the BMC's lock, retrying transient
// failures. Each attempt opens a fresh bmclib client, so rotated
// credentials apply at once and no session outlives an attempt.
func (c *Client) do(ctx context.Context, t Target, op string, fn func(context.Context, *bmclib.Client) error) error {
	full := "ipmi." + op
	if err := t.validate(full); err != nil {
		return err
	}
	release, err := c.locks.acquire(ctx, t.Addr())
	if err != nil {
		return err
	}
	defer release()
	attempt := func(ctx context.Context) error { return c.attempt(ctx, t, full, fn) }
	err = c.policy.run(ctx, attempt, func(n int, err error) {
		c.log.DebugContext(ctx, "retrying BMC operation", "bmc", t.Addr(), "op", op, "attempt", n, "err", err)
		c.metrics.retried(op)
	})
	c.metrics.done(op, err)
	return err
}

// attempt is one try, bounded by the configured timeout.
func (c *Client) attempt(ctx context.Context, t Target, op string, fn func(context.Context, *bmclib.Client) error) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	cl := c.bmclib(t)
	if err := cl.Open(ctx); err != nil {
		return classify(ctx, op, t.Addr(), err)
	}
	// Closing ends a Redfish session; ipmitool has none. A failed close
	// leaves nothing to act on, so its error is dropped.
	defer func() { _ = cl.Close(ctx) }()
	if err := fn(ctx, cl); err != nil {
		return classify(ctx, op, t.Addr(), err)
	}
	return nil
}

// bmclib builds a client whose registry holds only the configured
// providers, in the configured order.
func (c *Client) bmclib(t Target) *bmclib.Client {
	port := t.Port
	if port == 0 {
		port = 623
	}
	cl := bmclib.NewClient(t.Host, t.User, t.Pass,
		bmclib.WithIpmitoolPort(strconv.Itoa(port)),
		bmclib.WithIpmitoolCipherSuite(c.cfg.CipherSuite),
		bmclib.WithIpmitoolPath(c.cfg.IPMIToolPath),
		bmclib.WithPerProviderTimeout(c.cfg.Timeout/time.Duration(len(c.cfg.Providers))),
	)
	drivers := cl.Registry.For(c.cfg.Providers[0])
	for _, p := range c.cfg.Providers[1:] {
		drivers = append(drivers, cl.Registry.For(p)...)
	}
	cl.Registry.Drivers = drivers
	return cl
}
