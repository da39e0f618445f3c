package users_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/task/users"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

const passwd = `root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
ubuntu:x:1000:1000:Ubuntu:/home/ubuntu:/bin/bash
alice:x:1001:1001::/home/alice:/bin/bash
bob:x:1500:1500::/home/bob:/bin/bash
svc:x:2000:2000::/home/svc:/bin/bash
`

func host(t *testing.T) *tasktest.Host {
	h := tasktest.New(t)
	h.Write("/etc/passwd", passwd)
	h.Write("/etc/login.defs", "# comment\nUID_MIN\t\t\t 1001\nUID_MAX\t\t\t60000\n")
	h.Proc(1, "systemd", 0)
	h.Proc(900, "sshd", 0)
	h.Proc(1200, "bash", 1000)    // ubuntu: kept
	h.Proc(2001, "python3", 1001) // alice
	h.Proc(2002, "sleep", 1500)   // bob
	h.Proc(2003, "orphan", 1777)  // a tenant UID no longer in passwd
	h.Proc(2004, "nobody", 65534) // nobody is never a tenant
	return h
}

func names(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if n, _, ok := strings.Cut(l, ":"); ok {
			out = append(out, n)
		}
	}
	return out
}

func TestRevokeUserRemovesEveryTenantAndKillsTheirProcesses(t *testing.T) {
	h := host(t)
	env := h.Env()
	env.Policy.KeepUsers = []string{"ubuntu"}
	env.Policy.AgentUID = 2000 // svc runs the agent here
	res, err := users.Handler{Remove: true}.Run(context.Background(), env, []byte(`{}`))
	if err != nil {
		t.Fatalf("Run: %v (evidence %+v)", err, res.Evidence)
	}
	if diff := cmp.Diff([]string{"root", "daemon", "nobody", "ubuntu", "svc"}, names(h.Read("/etc/passwd"))); diff != "" {
		t.Errorf("users left (-want +got):\n%s", diff)
	}
	for pid, want := range map[int]bool{1: true, 900: true, 1200: true, 2001: false, 2002: false, 2003: false, 2004: true} {
		if got := h.Exists("/proc/" + itoa(pid)); got != want {
			t.Errorf("process %d present = %v, want %v", pid, got, want)
		}
	}
	if diff := cmp.Diff([]string{"loginctl terminate-user alice", "loginctl terminate-user bob"}, h.Exec.CallsOf("loginctl")); diff != "" {
		t.Errorf("loginctl calls (-want +got):\n%s", diff)
	}
	if !res.Evidence.Passed || res.Evidence.Task != wire.TypeRevokeUser {
		t.Errorf("evidence = %+v, want a passed revoke_user", res.Evidence)
	}
}

func TestTerminalCloseKeepsUsersAndKillsOnlyTheNamedOnes(t *testing.T) {
	h := host(t)
	res, err := users.Handler{}.Run(context.Background(), h.Env(), []byte(`{"users":["alice"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if h.Exists("/proc/2001") || !h.Exists("/proc/2002") || !h.Exists("/proc/2003") {
		t.Error("terminal.close for alice must kill alice's process and no other")
	}
	if len(h.Exec.CallsOf("userdel")) != 0 {
		t.Error("terminal.close removed a user")
	}
	if res.Evidence.Task != wire.TypeTerminalClose {
		t.Errorf("evidence task = %q", res.Evidence.Task)
	}
}

func TestRevokeUserFailsWithEvidence(t *testing.T) {
	tests := []struct {
		name      string
		payload   string
		setup     func(*tasktest.Host)
		wantCheck string
	}{
		{"a process survives SIGKILL", `{}`, func(h *tasktest.Host) { h.Immortal = []int{2002} }, "processes_killed"},
		{"userdel fails", `{}`, func(h *tasktest.Host) {
			h.Exec.Set("userdel", func([]string) ([]byte, error) {
				return nil, &task.ExitError{Name: "userdel", Code: 1, Stderr: []byte("cannot lock /etc/passwd")}
			})
		}, "users_removed"},
		{"a kept user is named", `{"users":["ubuntu","root"],"keep_users":["ubuntu"]}`, nil, "requested_users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := host(t)
			if tt.setup != nil {
				tt.setup(h)
			}
			res, err := users.Handler{Remove: true}.Run(context.Background(), h.Env(), []byte(tt.payload))
			if err == nil {
				t.Fatal("Run succeeded, want a failure")
			}
			if res.Evidence == nil || res.Evidence.Passed {
				t.Fatalf("evidence = %+v, want a failed report", res.Evidence)
			}
			for _, c := range res.Evidence.Checks {
				if c.Name == tt.wantCheck && c.Passed {
					t.Errorf("check %s passed: %+v", c.Name, c)
				}
			}
			if !strings.Contains(err.Error(), tt.wantCheck) {
				t.Errorf("error %q does not name %s", err, tt.wantCheck)
			}
			if strings.Contains(h.Read("/etc/passwd"), "ubuntu:") == false || !strings.Contains(h.Read("/etc/passwd"), "root:") {
				t.Error("a kept or system user was removed")
			}
		})
	}
}

func TestMissingLoginctlIsTolerated(t *testing.T) {
	h := host(t)
	h.Exec.Unset("loginctl")
	res, err := users.Handler{}.Run(context.Background(), h.Env(), nil)
	if err != nil {
		t.Fatalf("Run without loginctl: %v", err)
	}
	if h.Exists("/proc/2001") {
		t.Error("the process sweep did not run")
	}
	if c := res.Evidence.Checks[1]; c.Name != "sessions_terminated" || !strings.Contains(c.Reason, "not installed") {
		t.Errorf("sessions check = %+v", c)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
