//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
)

// pointKey marks the context of a read whose statements need not share a
// transaction.
type pointKey struct{}

// pointView is view for the operations' reads (op.Backend's View): each
// looks up one record, or a record and the rows under it, by key. Their
// statements run without BEGIN and COMMIT, each a transaction of its own
// on the leader (as fresh as before: the leader's last commit), so a read
// is one round trip to the leader per statement instead of that plus two.
// The store's own reads of many rows (lists, counts, exports) keep their
// transaction (view).
func (s *Store) pointView(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	return s.view(context.WithValue(ctx, pointKey{}, true), op, fn)
}
