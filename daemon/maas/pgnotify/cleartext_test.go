package pgnotify_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

const cleartextSecret = "s3cret-region-db-password"

// cleartextServer is a PostgreSQL impostor: it declines TLS, asks for the
// password in clear and records every byte the client sends afterwards.
func cleartextServer(t *testing.T) (addr string, got <-chan []byte) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out := make(chan []byte, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { out <- askInClear(c) }()
		}
	}()
	return l.Addr().String(), out
}

func askInClear(c net.Conn) []byte {
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	be := pgproto3.NewBackend(c, c)
	for {
		m, err := be.ReceiveStartupMessage()
		if err != nil {
			return nil
		}
		if _, ok := m.(*pgproto3.StartupMessage); ok {
			break
		}
		c.Write([]byte{'N'}) // no TLS, no GSS encryption
	}
	be.Send(&pgproto3.AuthenticationCleartextPassword{})
	if err := be.Flush(); err != nil {
		return nil
	}
	var rest bytes.Buffer
	c.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = rest.ReadFrom(c)
	return rest.Bytes()
}

func TestACleartextPasswordRequestIsRefusedAndThePasswordNeverSent(t *testing.T) {
	addr, got := cleartextServer(t)
	for _, sslmode := range []string{"disable", "prefer"} {
		t.Run(sslmode, func(t *testing.T) {
			dsn := fmt.Sprintf("postgres://maas@%s/maasdb?sslmode=%s", addr, sslmode)
			err := pgnotify.Prove(context.Background(), dsn, cleartextSecret)
			if lifecycle.ErrorCode(err) != lifecycle.CodeUnauthorized || pgnotify.Reason(err) != pgnotify.ReasonAuth {
				t.Fatalf("Prove = %v (%s), want unauthorized", err, lifecycle.ErrorCode(err))
			}
			if bytes.Contains([]byte(err.Error()), []byte(cleartextSecret)) {
				t.Fatal("the error carries the password")
			}
			select {
			case b := <-got:
				if bytes.Contains(b, []byte(cleartextSecret)) {
					t.Fatalf("the impostor received the password: %q", b)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the impostor saw no connection")
			}
		})
	}
}

func TestTheListenerRefusesACleartextPasswordRequest(t *testing.T) {
	addr, got := cleartextServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	downs := make(chan error, 4)
	done := make(chan error, 1)
	go func() {
		done <- pgnotify.Run(ctx, pgnotify.Config{MinBackoff: time.Hour, MaxBackoff: time.Hour,
			Source: pgnotify.Source{DSN: "postgres://maas@" + addr + "/maasdb?sslmode=prefer",
				Password: func(context.Context) (string, error) { return cleartextSecret, nil }},
			Listening: func() {}, Notify: func(pgnotify.Notification) {}, Down: func(err error) { downs <- err }})
	}()
	select {
	case err := <-downs:
		if pgnotify.Reason(err) != pgnotify.ReasonAuth {
			t.Errorf("down reason %q (%v), want auth", pgnotify.Reason(err), err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the listener reported nothing")
	}
	if b := <-got; bytes.Contains(b, []byte(cleartextSecret)) {
		t.Fatalf("the impostor received the password: %q", b)
	}
	cancel()
	<-done
}
