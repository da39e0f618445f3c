package agent

import (
	"time"

	"github.com/gpuaas/maas-sidecar/agent/metrics"
)

// Observer is told what the agent's own metrics count (agent/metrics
// satisfies it). Results and reasons are the metrics package's constants.
type Observer interface {
	TaskDone(taskType, result string)
	// Contacted: the daemon accepted a request at t.
	Contacted(t time.Time)
	// Enrolled: an enrollment succeeded at t.
	Enrolled(t time.Time)
	// SetEnrolled: whether the agent holds a certificate the daemon has
	// not refused.
	SetEnrolled(ok bool)
	Refused(reason string)
}

var _ Observer = (*metrics.Metrics)(nil)

// nopObserver is the Observer of an agent built without one.
type nopObserver struct{}

func (nopObserver) TaskDone(string, string) {}
func (nopObserver) Contacted(time.Time)     {}
func (nopObserver) Enrolled(time.Time)      {}
func (nopObserver) SetEnrolled(bool)        {}
func (nopObserver) Refused(string)          {}

// contacted records that the daemon accepted a request now.
func (a *Agent) contacted() { a.o.Observer.Contacted(a.o.Clock.Now()) }

// observeEnrollment publishes whether the agent holds a certificate the
// daemon has not refused.
func (a *Agent) observeEnrollment() {
	ok := a.cert != nil && a.refusal == ""
	a.enrolled.Store(ok)
	a.o.Observer.SetEnrolled(ok)
}

// taskResult is the metrics result of a task that ran.
func taskResult(success bool) string {
	if success {
		return metrics.ResultSuccess
	}
	return metrics.ResultFailure
}
