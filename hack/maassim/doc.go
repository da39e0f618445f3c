// Command maassim serves a simulated MAAS 3.6 region for development and
// tests:
//
//	go run ./hack/maassim --listen 127.0.0.1:5240 --machines 20 --api-key ck:tk:ts \
//	    --speed 60 [--webhook-url URL --webhook-secret S] [--seed N]
//
// It prints the MAAS URL and API key, then serves until SIGTERM or SIGINT.
package main
