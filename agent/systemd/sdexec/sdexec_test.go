package sdexec_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/systemd/sdexec"
	"github.com/gpuaas/maas-sidecar/agent/task"
)

// recorder records the commands and fails those naming fail.
type recorder struct {
	calls []string
	fail  string
}

func (r *recorder) Exec(_ context.Context, name string, args ...string) ([]byte, error) {
	c := strings.Join(append([]string{name}, args...), " ")
	r.calls = append(r.calls, c)
	if r.fail != "" && strings.Contains(c, r.fail) {
		return nil, &task.ExitError{Name: name, Code: 1, Stderr: []byte("Failed")}
	}
	return nil, nil
}

func TestManager(t *testing.T) {
	tests := []struct {
		name    string
		call    func(m sdexec.Manager) error
		fail    string
		want    []string
		wantErr bool
	}{
		{"disable reloads", func(m sdexec.Manager) error { return m.Disable(context.Background(), "a.service") }, "",
			[]string{"systemctl disable a.service", "systemctl daemon-reload"}, false},
		{"enable reloads", func(m sdexec.Manager) error { return m.Enable(context.Background(), "a.service", "b.timer") }, "",
			[]string{"systemctl enable a.service b.timer", "systemctl daemon-reload"}, false},
		{"a failed disable does not reload", func(m sdexec.Manager) error { return m.Disable(context.Background(), "a.service") },
			"disable", []string{"systemctl disable a.service"}, true},
		{"stop", func(m sdexec.Manager) error { return m.Stop(context.Background(), "a.service") }, "",
			[]string{"systemctl stop a.service"}, false},
		{"restart fails", func(m sdexec.Manager) error { return m.Restart(context.Background(), "a.service") }, "restart",
			[]string{"systemctl restart a.service"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{fail: tt.fail}
			err := tt.call(sdexec.Manager{Exec: r})
			var ee *task.ExitError
			if (err != nil) != tt.wantErr || (err != nil && !errors.As(err, &ee)) {
				t.Errorf("err = %v, want error %v wrapping the exit", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, r.calls); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
		})
	}
}
