package lifecycle

import (
	"encoding/json"
	"time"
)

// ReseedTask is the node.hw_sync_reseed task id queues for node nodeID
// (run runID, "" for the reconciler's), expiring at expires. Its stored
// payload names the site and the machine only: the agent API adds the
// machine's MAAS credentials when it dispatches the task, so they never
// reach the store.
func ReseedTask(id, nodeID, runID, siteID, systemID string, expires time.Time) AgentTask {
	payload, _ := json.Marshal(map[string]string{"site_id": siteID, "system_id": systemID}) // strings cannot fail
	return AgentTask{ID: id, NodeID: nodeID, Type: TaskHWSyncReseed, Payload: payload, RunID: runID, ExpiresAt: expires}
}
