// Package answer holds the bodies of the admin API: what a request sends
// and what an answer holds. The server writes them, the admin API client
// (package adminclient, used by the command line and the console) reads
// them, and the tests check them against the OpenAPI document, so one
// change to a body is made in one place.
//
// Onboardings and decommissions are runs of one shape: RunKinds names
// what differs between the kinds at the operator surface (the path
// segment, the key a run is answered under); RunView, RunList and
// ActionResult are the answers of the routes every kind has.
package answer
