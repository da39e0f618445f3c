package task

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type nop struct{}

func (nop) Run(context.Context, Env, []byte) (Result, error) { return Result{}, nil }

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	r.Register("b.task", nop{})
	r.Register("a.task", nop{})
	if _, ok := r.Lookup("a.task"); !ok {
		t.Error("registered type not found")
	}
	if _, ok := r.Lookup("shell"); ok {
		t.Error("unregistered type found")
	}
	if diff := cmp.Diff([]string{"a.task", "b.task"}, r.Types()); diff != "" {
		t.Errorf("Types() (-want +got):\n%s", diff)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a type twice did not panic")
		}
	}()
	r.Register("a.task", nop{})
}
