package residue

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// SysV IPC tables (proc(5)): the id column and the ipcrm flag of each.
var sysvTables = []struct{ file, idCol, flag string }{
	{"/proc/sysvipc/shm", "shmid", "-m"},
	{"/proc/sysvipc/msg", "msqid", "-q"},
	{"/proc/sysvipc/sem", "semid", "-s"},
}

// LingerDir holds one file per user whose systemd user manager lingers.
const LingerDir = "/var/lib/systemd/linger"

// sysvIPC lists the SysV IPC objects whose owner or creator is a
// tenant's. Item paths are "/proc/sysvipc/shm#<id>". A kernel without
// SysV IPC has no tables: nothing to find.
func sysvIPC(root hostroot.Root, r Rule) ([]wire.OwnedItem, error) {
	var out []wire.OwnedItem
	var errs []error
	for _, t := range sysvTables {
		b, err := os.ReadFile(root.Path(t.file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("residue: %w", err))
			continue
		}
		for _, row := range ParseSysV(string(b), t.idCol) {
			if r.Tenant(row.UID, row.GID) || r.Tenant(row.CUID, row.CGID) {
				out = append(out, wire.OwnedItem{Kind: KindSysV, Path: t.file + "#" + row.ID, UID: row.UID, GID: row.GID})
			}
		}
	}
	return out, errors.Join(errs...)
}

// SysVRow is one IPC object: its id, owner and creator.
type SysVRow struct {
	ID                   string
	UID, GID, CUID, CGID int
}

// ParseSysV reads a /proc/sysvipc table by its header's column names;
// rows too short or with bad numbers are skipped.
func ParseSysV(s, idCol string) []SysVRow {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) < 2 {
		return nil
	}
	col := map[string]int{}
	for i, h := range strings.Fields(lines[0]) {
		col[h] = i
	}
	need := []string{idCol, "uid", "gid", "cuid", "cgid"}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return nil
		}
	}
	var out []SysVRow
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		num := func(n string) (int, bool) {
			if col[n] >= len(f) {
				return 0, false
			}
			v, err := strconv.Atoi(f[col[n]])
			return v, err == nil
		}
		uid, ok1 := num("uid")
		gid, ok2 := num("gid")
		cuid, ok3 := num("cuid")
		cgid, ok4 := num("cgid")
		if ok1 && ok2 && ok3 && ok4 && col[idCol] < len(f) {
			out = append(out, SysVRow{ID: f[col[idCol]], UID: uid, GID: gid, CUID: cuid, CGID: cgid})
		}
	}
	return out
}

// linger lists the lingering users that are no longer kept accounts: a
// file named by a user who is gone, or by a tenant, keeps a user manager
// (and its units) for an ID the next tenant may get.
func linger(root hostroot.Root, r Rule) ([]wire.OwnedItem, error) {
	ents, err := os.ReadDir(root.Path(LingerDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("residue: %w", err)
	}
	users, err := hostinfo.ReadUsers(root)
	if err != nil {
		return nil, err
	}
	var out []wire.OwnedItem
	for _, e := range ents {
		i := indexUser(users, e.Name())
		if i >= 0 && !r.IsTenant(users[i]) {
			continue
		}
		it := wire.OwnedItem{Kind: KindLinger, Path: LingerDir + "/" + e.Name(), UID: -1, GID: -1}
		if i >= 0 {
			it.UID = users[i].UID
		}
		out = append(out, it)
	}
	return out, nil
}

func indexUser(users []hostinfo.User, name string) int {
	for i, u := range users {
		if u.Name == name {
			return i
		}
	}
	return -1
}
