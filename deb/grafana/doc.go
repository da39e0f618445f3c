// Package grafana holds the Grafana dashboard of the daemon,
// maas-sidecar.json, shipped in the Debian package as
// /usr/share/maas-sidecar/grafana/maas-sidecar.json. It is a Go package
// only for its tests: the dashboard's structure and, with the integration
// tag, its queries and the alert rules against a real Prometheus scraping
// a running daemon.
package grafana
