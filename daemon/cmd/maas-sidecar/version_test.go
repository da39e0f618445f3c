package main

import "testing"

func TestStoresLine(t *testing.T) {
	tests := []struct {
		stores []string
		want   string
	}{
		{[]string{"bolt"}, "stores: bolt (built without dqlite)"},
		{[]string{"bolt", "dqlite"}, "stores: bolt, dqlite"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := storesLine(tt.stores); got != tt.want {
				t.Errorf("storesLine(%q) = %q, want %q", tt.stores, got, tt.want)
			}
		})
	}
}
