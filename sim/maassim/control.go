package maassim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// serveControl serves the /_sim/ routes that program faults over HTTP:
//
//	POST /_sim/faults/ops              {"op","error_rate","latency_ms","timeout","hold_ms","status","late"}
//	GET  /_sim/faults/holds            HoldStats: answers held now and so far
//	POST /_sim/machines/{sid}/{action} {"count","comment"}; actions below
//	POST /_sim/bmcs/{address}          {"delay_ms","dead","stuck_on"}
//	POST /_sim/hosts                   {"power_address","pxe_mac","no_boss","architecture"}
//	POST /_sim/hosts/{address}/pxe-boot
//	POST /_sim/webhooks                {"targets":[{"url","secret"}],"drop","duplicate","reorder","delay_ms"}
//	POST /_sim/step
func (s *Sim) serveControl(w http.ResponseWriter, r *http.Request) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_sim/faults/ops", s.ctlOpFault)
	mux.HandleFunc("GET /_sim/faults/holds", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Holds())
	})
	mux.HandleFunc("POST /_sim/machines/{sid}/{action}", s.ctlMachine)
	mux.HandleFunc("POST /_sim/bmcs/{addr}", s.ctlBMC)
	mux.HandleFunc("POST /_sim/hosts", s.ctlHost)
	mux.HandleFunc("POST /_sim/hosts/{addr}/pxe-boot", s.ctlPXEBoot)
	mux.HandleFunc("POST /_sim/webhooks", s.ctlWebhooks)
	mux.HandleFunc("POST /_sim/step", func(w http.ResponseWriter, r *http.Request) {
		s.Step(r.Context())
		w.WriteHeader(http.StatusNoContent)
	})
	mux.ServeHTTP(w, r)
}

type ctlBody struct {
	Op        string          `json:"op"`
	ErrorRate float64         `json:"error_rate"`
	LatencyMS int             `json:"latency_ms"`
	Timeout   bool            `json:"timeout"`
	HoldMS    int             `json:"hold_ms"`
	Late      int             `json:"late"`
	Status    int             `json:"status"`
	Count     int             `json:"count"`
	Comment   string          `json:"comment"`
	DelayMS   int             `json:"delay_ms"`
	Dead      bool            `json:"dead"`
	StuckOn   bool            `json:"stuck_on"`
	PowerAddr string          `json:"power_address"`
	PXEMAC    string          `json:"pxe_mac"`
	NoBOSS    bool            `json:"no_boss"`
	Arch      string          `json:"architecture"`
	Targets   []WebhookTarget `json:"targets"`
	Drop      float64         `json:"drop"`
	Duplicate float64         `json:"duplicate"`
	Reorder   float64         `json:"reorder"`
}

func readCtl(w http.ResponseWriter, r *http.Request) (ctlBody, bool) {
	var b ctlBody
	if r.ContentLength == 0 {
		return b, true
	}
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		http.Error(w, "bad JSON body: "+err.Error(), http.StatusBadRequest)
		return b, false
	}
	return b, true
}

func (s *Sim) ctlOpFault(w http.ResponseWriter, r *http.Request) {
	b, ok := readCtl(w, r)
	if !ok {
		return
	}
	if b.Op == "" {
		http.Error(w, "op is required", http.StatusBadRequest)
		return
	}
	s.SetOpFault(b.Op, OpFault{ErrorRate: b.ErrorRate, Latency: time.Duration(b.LatencyMS) * time.Millisecond,
		Timeout: b.Timeout, Hold: time.Duration(b.HoldMS) * time.Millisecond, Status: b.Status, Late: b.Late})
	w.WriteHeader(http.StatusNoContent)
}

func (s *Sim) machineActions() map[string]func(ctx context.Context, sid string, b ctlBody) error {
	return map[string]func(ctx context.Context, sid string, b ctlBody) error{
		"fail-commissioning": func(ctx context.Context, sid string, b ctlBody) error {
			return s.FailNextCommissioning(ctx, sid, max(b.Count, 1))
		},
		"fail-deployment": func(ctx context.Context, sid string, b ctlBody) error {
			return s.FailNextDeployment(ctx, sid, max(b.Count, 1))
		},
		"fail-erase": func(ctx context.Context, sid string, b ctlBody) error {
			return s.FailNextErase(ctx, sid, max(b.Count, 1))
		},
		"erase-does-nothing": func(ctx context.Context, sid string, b ctlBody) error {
			return s.EraseDoesNothing(ctx, sid, max(b.Count, 1))
		},
		"remove-boss": func(ctx context.Context, sid string, _ ctlBody) error { return s.RemoveBOSS(ctx, sid) },
		"unlink-pxe":  func(ctx context.Context, sid string, _ ctlBody) error { return s.UnlinkPXE(ctx, sid) },
		"release":     func(ctx context.Context, sid string, _ ctlBody) error { return s.ReleaseOutOfBand(ctx, sid) },
		"delete":      func(ctx context.Context, sid string, _ ctlBody) error { return s.DeleteOutOfBand(ctx, sid) },
		"redeploy":    func(ctx context.Context, sid string, _ ctlBody) error { return s.RedeployOutOfBand(ctx, sid) },
		"power-off":   func(ctx context.Context, sid string, _ ctlBody) error { return s.PowerOffOutOfBand(ctx, sid) },
		"mark-broken": func(ctx context.Context, sid string, b ctlBody) error {
			return s.MarkBrokenOutOfBand(ctx, sid, b.Comment)
		},
		"change-ip": func(ctx context.Context, sid string, _ ctlBody) error { return s.ChangeIPOutOfBand(ctx, sid) },
	}
}

func (s *Sim) ctlMachine(w http.ResponseWriter, r *http.Request) {
	b, ok := readCtl(w, r)
	if !ok {
		return
	}
	fn, ok := s.machineActions()[r.PathValue("action")]
	if !ok {
		http.Error(w, fmt.Sprintf("unknown action %q", r.PathValue("action")), http.StatusNotFound)
		return
	}
	if err := fn(r.Context(), r.PathValue("sid"), b); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
