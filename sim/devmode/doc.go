// Package devmode is `maas-sidecar serve --dev`: a whole simulated GPU
// site inside the daemon so a newcomer can watch it work with nothing
// installed. It runs the MAAS simulator on loopback with hosts behind
// simulated BMCs, keeps secrets in memory, creates the site and its
// policy, and boots every machine MAAS deploys as a simulated host that
// runs the real node agent from the cloud-init the daemon rendered.
// Where PostgreSQL is installed it also runs a throwaway region database
// the simulator mirrors into and the dev site LISTENs on (StartRegionDB);
// without it dev mode runs as before.
//
// Nothing here is used outside dev mode; the in-memory secret backend
// refuses to exist otherwise. Only the daemon's dev build (build tag dev:
// make build, make run, the tests) links it; the packaged daemon does not.
package devmode
