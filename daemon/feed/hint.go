package feed

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// handle turns hints about machines of a site into action: each machine
// is read once from MAAS (duplicates collapse), the runs waiting on it
// are woken, and the reconciler judges what was read. It returns the
// machines that could not be read (their hints stay pending) and what went
// wrong, for the top of the caller's loop to log (see logFailure).
func (f *Feed) handle(ctx context.Context, siteID string, sids []string, source string) (map[string]bool, error) {
	uniq := map[string]bool{}
	for _, s := range sids {
		uniq[s] = true
	}
	failed := map[string]bool{}
	var errs []error
	m, err := f.connect(ctx, siteID)
	if err != nil {
		return uniq, err
	}
	obs := map[string]lifecycle.Observation{}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(f.cfg.Workers)
	for sid := range uniq {
		g.Go(func() error {
			epoch := f.cfg.Reconciler.Epoch()
			x, err := m.Machine(gctx, sid)
			o := lifecycle.Observation{Present: err == nil, Machine: x, Epoch: epoch}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
				failed[sid] = true
				errs = append(errs, &machineError{SystemID: sid, Err: err})
				return nil
			}
			obs[sid] = o
			return nil
		})
	}
	_ = g.Wait()
	f.cfg.Metrics.hints(source, len(obs))
	f.wake(siteID, obs, true)
	if _, err := f.cfg.Reconciler.Observe(ctx, siteID, obs); err != nil {
		errs = append(errs, err)
	}
	return failed, errors.Join(errs...)
}

func (f *Feed) connect(ctx context.Context, siteID string) (MAAS, error) {
	site, err := f.cfg.Store.GetSite(ctx, siteID)
	if err != nil {
		return nil, err
	}
	return f.cfg.Connector.Connect(ctx, site)
}

// wake wakes the runs parked on each hinted machine (every one when all,
// else those whose observable state changed since the feed last read it),
// and the site's key when a machine appeared that the feed did not know.
func (f *Feed) wake(siteID string, obs map[string]lifecycle.Observation, all bool) {
	appeared := false
	f.mu.Lock()
	known := f.known[siteID]
	if known == nil {
		known = map[string]string{}
		f.known[siteID] = known
	}
	var changed []string
	for sid, o := range obs {
		fp := fingerprint(o)
		old, ok := known[sid]
		appeared = appeared || (!ok && o.Present)
		if all || fp != old {
			changed = append(changed, sid)
		}
		known[sid] = fp
		if !o.Present {
			delete(known, sid)
		}
	}
	f.mu.Unlock()
	for _, sid := range changed {
		f.cfg.Waker.Wake(lifecycle.MachineKey(sid))
	}
	if appeared {
		f.cfg.Waker.Wake(lifecycle.SiteKey(siteID))
	}
}

func fingerprint(o lifecycle.Observation) string {
	if !o.Present {
		return "absent"
	}
	x := o.Machine
	return fmt.Sprintf("%d|%s|%v|%v|%v|%v", x.Status, x.PowerState, x.IPs, x.LastSync, x.NextSync, x.HWSyncEnabled)
}
