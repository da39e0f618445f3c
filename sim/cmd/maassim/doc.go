// Command maassim serves a simulated MAAS 3.6 region for development and
// tests:
//
//	go run ./sim/cmd/maassim --listen 127.0.0.1:5240 --machines 20 --api-key ck:tk:ts \
//	    --speed 60 [--webhook-url URL --webhook-secret S] [--seed N] \
//	    [--request-log FILE] [--boot-agent BIN --boot-dir DIR [--boot-agent-retry D]] \
//	    [--hold deploy=30s,release=30s,erase=30s,power_off=30s] \
//	    [--erase-full 10m --erase-quick 2m --erase-secure 4m] [--postgres DSN]
//
// It prints one MACHINE line per seeded machine (hostname, system id, BMC
// address), the MAAS URL and API key, then serves until SIGTERM or SIGINT.
//
// With --request-log, every MAAS API call is appended to FILE as one JSON
// line (method, path, op, status, User-Agent): end-to-end tests count deploys,
// releases and power actions per machine from it.
//
// With --hold, each named op acts on its request (the machine changes
// status, power is applied) and then holds the answer for the duration, or
// until the client gives up: the window a crash test kills the daemon in.
// "erase" names a release that erases. GET /_sim/faults/holds reports the
// answers held now and so far; POST /_sim/faults/ops {"op","hold_ms"}
// changes them while running. The --erase-* flags set how long each erase
// method takes, before --speed divides them.
//
// With --postgres, the machines are mirrored into that PostgreSQL database
// as MAAS's region database holds them (maasserver_node, maasserver_event
// and MAAS's notification triggers), so LISTEN on machine_create,
// machine_update, machine_delete and event_create works as against a real
// region (docs/maas-notify.md). The DSN is checked at start; a database
// that does not answer then stops the command, later outages are retried.
//
// With --boot-agent, a machine that finishes deploying boots for real: its
// user-data's write_files are laid out under DIR/<hostname> and the
// gpuaas-node-agent binary BIN runs as a separate process with that root
// (its output in DIR/<hostname>.log), until the machine is deployed again
// or the simulator stops.
package main
