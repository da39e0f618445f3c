package lifecycle

import "testing"

func TestTaskCatalog(t *testing.T) {
	if len(TaskTypes) != 12 {
		t.Fatalf("catalog has %d types, want the 9 of DESIGN.md §7, the canary plant and check, and the reboot", len(TaskTypes))
	}
	for _, typ := range TaskTypes {
		if !typ.Valid() {
			t.Errorf("%s invalid", typ)
		}
	}
	for _, bad := range []TaskType{"shell.exec", "", "node.exec"} {
		if bad.Valid() {
			t.Errorf("%q must not be a task type", bad)
		}
	}
	for s, term := range map[TaskState]bool{TaskQueued: false, TaskDispatched: false, TaskSucceeded: true, TaskFailed: true, TaskExpired: true} {
		if s.Terminal() != term {
			t.Errorf("%s terminal = %v", s, !term)
		}
	}
}
