module github.com/gpuaas/maas-sidecar

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	go.etcd.io/bbolt v1.4.3
)

require (
	github.com/gorilla/mux v1.8.1 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
