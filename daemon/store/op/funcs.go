package op

import (
	"context"
	"time"
)

// TxFunc runs fn in one transaction of a backend's own type T, under the
// operation's name.
type TxFunc[T any] func(ctx context.Context, name string, fn func(T) error) error

// Funcs is a Backend made of a backend's own transaction functions on its
// transaction type T and the conversion of a T to its records.
type Funcs[T any] struct {
	Write, Shared, Read TxFunc[T] // Update, Batch and View
	Records             func(T) Tx
	Clock               func() time.Time
}

// Update implements Backend.
func (f Funcs[T]) Update(ctx context.Context, name string, fn func(Tx) error) error {
	return f.Write(ctx, name, func(t T) error { return fn(f.Records(t)) })
}

// Batch implements Backend.
func (f Funcs[T]) Batch(ctx context.Context, name string, fn func(Tx) error) error {
	return f.Shared(ctx, name, func(t T) error { return fn(f.Records(t)) })
}

// View implements Backend.
func (f Funcs[T]) View(ctx context.Context, name string, fn func(Tx) error) error {
	return f.Read(ctx, name, func(t T) error { return fn(f.Records(t)) })
}

// Now implements Backend.
func (f Funcs[T]) Now() time.Time { return f.Clock() }
