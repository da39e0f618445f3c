package cli

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

func init() { commands["cluster remove"] = clusterRemove }

// removedMember is the answer of DELETE /cluster/members/{id}.
type removedMember struct {
	ID            uint64
	Address, Role string
}

// clusterRemove removes a stopped member from the store's cluster, named
// by its id or its address (looked up in the cluster status). --reason
// is recorded in the audit log.
func clusterRemove(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "ADDRESS|MEMBER_ID")
	if err != nil {
		return err
	}
	id, err := s.memberID(ctx, pos[0])
	if err != nil {
		return err
	}
	var m removedMember
	raw, err := s.call(ctx, http.MethodDelete, admin+"/cluster/members/"+strconv.FormatUint(id, 10), nil, &m, nil)
	if err != nil {
		return err
	}
	if s.output == "json" {
		return s.show(raw, "", nil)
	}
	s.printf("member %d (%s, %s) removed from the cluster; to bring that host back, empty its state_dir/dqlite and start it with store.dqlite.join\n",
		m.ID, m.Address, m.Role)
	return nil
}

// memberID is arg as a member id: a number as it is, an address looked
// up among the members of the cluster status (exit codes as the API's
// answers would give: 409 not clustered, 404 no such member).
func (s *session) memberID(ctx context.Context, arg string) (uint64, error) {
	if id, err := strconv.ParseUint(arg, 10, 64); err == nil {
		return id, nil
	}
	var out clusterAnswer
	if _, err := s.call(ctx, http.MethodGet, admin+"/cluster", nil, &out, nil); err != nil {
		return 0, err
	}
	if !out.Cluster.Clustered {
		return 0, &adminclient.APIError{Status: http.StatusConflict, Code: "conflict",
			Detail: "the store is not clustered (backend " + out.Cluster.Backend + "): it has no members to remove"}
	}
	for _, m := range out.Cluster.Members {
		if m.Address == arg {
			return m.ID, nil
		}
	}
	return 0, &adminclient.APIError{Status: http.StatusNotFound, Code: "not_found",
		Detail: "no member at " + arg + ": `maas-sidecar cluster status` lists the members"}
}
