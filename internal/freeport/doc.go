// Package freeport hands tests a loopback address to bind later: a port
// below the kernel's ephemeral range, so the outgoing connections a test
// makes in the meantime cannot take it, and with nothing listening on
// it when it is handed out.
//
// A port from listening on ":0" comes from the ephemeral range, which is
// also where the kernel picks the local port of every outgoing
// connection; a test that picks three such ports, starts one daemon and
// lets it dial before the next starts can find its port taken ("bind:
// address already in use").
package freeport
