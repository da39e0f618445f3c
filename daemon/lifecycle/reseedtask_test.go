package lifecycle

import (
	"encoding/json"
	"testing"
	"time"
)

func TestReseedTaskNamesOnlyTheMachine(t *testing.T) {
	exp := time.Unix(1700000000, 0)
	task := ReseedTask("t1", "n1", "r1", "site-1", "abc123", exp)
	var p map[string]string
	if err := json.Unmarshal(task.Payload, &p); err != nil {
		t.Fatal(err)
	}
	if len(p) != 2 || p["site_id"] != "site-1" || p["system_id"] != "abc123" {
		t.Errorf("payload %v, want site_id and system_id only", p)
	}
	if task.Type != TaskHWSyncReseed || task.ID != "t1" || task.NodeID != "n1" || task.RunID != "r1" || !task.ExpiresAt.Equal(exp) {
		t.Errorf("task %+v", task)
	}
}
