module github.com/gpuaas/maas-sidecar

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	go.etcd.io/bbolt v1.4.3
)

require (
	github.com/coreos/go-systemd/v22 v22.6.0 // indirect
	github.com/godbus/dbus/v5 v5.1.0 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
