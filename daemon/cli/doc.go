// Package cli is the operator command line of maas-sidecar: verbs that
// call the local admin API over HTTP and print human tables or, with
// -o json, the API's JSON. It reads secrets from stdin or files, never
// from arguments, and converts operator CSV files into the API's JSON.
//
// Exit codes (stable, for scripts):
//
//	0  success
//	1  failure: transport error, 5xx, or an unexpected answer
//	2  usage: bad flags or arguments, or a bad input file (nothing sent)
//	3  authentication or authorisation refused (401, 403)
//	4  not found (404)
//	5  conflict with the current state (409)
//	6  the API refused the input (400, 413, 422)
//	7  the command ran, but its outcome is not success: a probe that
//	   found MAAS unreachable or the key refused, watched runs that
//	   ended failed or cancelled, or an enrollment token issued but not
//	   written to its --output file
package cli
