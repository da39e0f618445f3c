package api

import (
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// NewRegistry returns the daemon's own metrics registry with the Go and
// process collectors and maas_sidecar_build_info{version, goversion} = 1.
// Labels never carry secrets or unbounded values.
func NewRegistry(version string) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	buildInfo := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "maas_sidecar_build_info",
		Help: "Build of the running maas-sidecar daemon; always 1.",
	}, []string{"version", "goversion"})
	buildInfo.WithLabelValues(version, runtime.Version()).Set(1)
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfo,
	)
	return reg
}
