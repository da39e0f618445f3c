//go:build !linux

package main

import "syscall"

// agentAttr: outside Linux, agents are stopped on the simulator's
// orderly shutdown only.
func agentAttr() *syscall.SysProcAttr { return nil }
