package api

import (
	"net/http"
	"testing"
)

func TestAdminSlot(t *testing.T) {
	var slot Slot
	h := NewRouter(Deps{Readiness: &Readiness{}, Metrics: NewRegistry("x"), Admin: &slot})
	if code, _ := get(t, h, "/api/v1/admin/maas-sites"); code != http.StatusServiceUnavailable {
		t.Errorf("before Set: %d, want 503", code)
	}
	slot.Set(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	if code, _ := get(t, h, "/api/v1/admin/maas-sites"); code != http.StatusTeapot {
		t.Errorf("after Set: %d, want the admin handler's answer", code)
	}
	if code, _ := get(t, h, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz = %d", code)
	}
}
