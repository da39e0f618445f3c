package main

import "syscall"

// agentAttr makes the kernel kill a booted agent when the simulator dies,
// even by SIGKILL, so no agent outlives its simulator.
func agentAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
