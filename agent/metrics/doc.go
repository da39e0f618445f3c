// Package metrics keeps the node agent's own metrics and writes them, in
// the Prometheus text format, to one file in node_exporter's textfile
// collector directory, the way host agents on GPU fleets export what they
// do: node_exporter already runs on the host and is scraped, so the agent
// opens no port of its own.
//
// The file (FileName) is replaced atomically, as node_exporter's
// documentation asks: written to a hidden temporary file in the same
// directory, then renamed over the old one, so a scrape never reads half
// a file. It is rewritten after every change and every interval.
//
// Counters start at zero when the agent starts: a restart resets them,
// which rate() and increase() read as a counter reset, as for any
// process. The series of every known task type and result, and of every
// refusal reason, exist at zero from the start.
package metrics
