package wire

import (
	"net/url"
	"path"
)

// Route templates of the agent API (gorilla/mux syntax).
const (
	RouteEnroll = "/internal/v1/nodes/enroll"
	RouteWait   = "/internal/v1/nodes/{id}/tasks/wait"
	RouteResult = "/internal/v1/nodes/{id}/tasks/{task_id}/result"
	RouteRenew  = "/internal/v1/nodes/{id}/certificate/renew"
)

// WaitTimeoutParam is the query parameter of RouteWait holding the longest
// wait the agent asks for, as a Go duration ("25s"); the daemon caps it.
const WaitTimeoutParam = "timeout"

// WaitPath returns RouteWait for node id.
func WaitPath(id string) string {
	return "/internal/v1/nodes/" + url.PathEscape(id) + "/tasks/wait"
}

// ResultPath returns RouteResult for node id and task taskID.
func ResultPath(id, taskID string) string {
	return path.Join("/internal/v1/nodes", url.PathEscape(id), "tasks", url.PathEscape(taskID), "result")
}

// RenewPath returns RouteRenew for node id.
func RenewPath(id string) string {
	return "/internal/v1/nodes/" + url.PathEscape(id) + "/certificate/renew"
}

// RouteRenewToken replaces an expired enrollment token the daemon granted a
// renewal for. Like RouteEnroll it needs no client certificate.
const RouteRenewToken = "/internal/v1/nodes/enroll/renew"
