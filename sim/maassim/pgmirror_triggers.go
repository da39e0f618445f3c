package maassim

import (
	"fmt"
	"strings"
)

// nodeFields are the maasserver_node columns whose change fires an
// update notification (node_fields in MAAS 3.6's
// src/maasserver/triggers/websocket.py).
var nodeFields = []string{"architecture", "bmc_id", "cpu_count", "cpu_speed",
	"current_commissioning_script_set_id", "current_installation_script_set_id",
	"current_testing_script_set_id", "description", "distro_series", "domain_id",
	"error", "hostname", "hwe_kernel", "instance_power_parameters", "last_image_sync",
	"license_key", "locked", "min_hwe_kernel", "osystem", "owner_id", "parent_id",
	"pool_id", "power_state", "status", "swap_size", "zone_id"}

// nodeKinds are register_websocket_triggers's node types: procedure
// prefix, channel prefix and node_type (NODE_TYPE in maasserver/enum.py).
var nodeKinds = []struct {
	proc, channel string
	nodeType      int
}{
	{"machine", "machine", 0},
	{"rack_controller", "controller", 2},
	{"region_controller", "controller", 3},
	{"region_and_rack_controller", "controller", 4},
	{"device", "device", 1},
}

// nodeTriggers renders MAAS 3.6's create, update and delete triggers on
// maasserver_node for every node type. A device notifies on its own
// channel, or, when it has a parent, the parent's machine_update
// (render_device_notification_procedure).
func nodeTriggers() string {
	var b strings.Builder
	for _, k := range nodeKinds {
		for _, op := range []struct{ name, row string }{{"create", "NEW"}, {"update", "NEW"}, {"delete", "OLD"}} {
			fn := k.proc + "_" + op.name + "_notify"
			if k.proc == "device" {
				b.WriteString(deviceProcedure(fn, k.channel+"_"+op.name, op.row))
			} else {
				fmt.Fprintf(&b, `
CREATE OR REPLACE FUNCTION %s() RETURNS trigger AS $$
DECLARE
BEGIN
  PERFORM pg_notify('%s_%s',CAST(%s.system_id AS text));
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
`, fn, k.channel, op.name, op.row)
			}
			b.WriteString(nodeTrigger(k.proc, op.name, k.nodeType))
		}
	}
	return b.String()
}

func deviceProcedure(fn, channel, row string) string {
	return fmt.Sprintf(`
CREATE OR REPLACE FUNCTION %[1]s() RETURNS trigger AS $$
DECLARE
  pnode RECORD;
BEGIN
  IF %[3]s.parent_id IS NOT NULL THEN
    SELECT system_id INTO pnode
    FROM maasserver_node
    WHERE id = %[3]s.parent_id;
    PERFORM pg_notify('machine_update',CAST(pnode.system_id AS text));
  ELSE
    PERFORM pg_notify('%[2]s',CAST(%[3]s.system_id AS text));
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
`, fn, channel, row)
}

// nodeTrigger is register_triggers's trigger: named node_<proc>_<op>_notify,
// conditioned on the node type and, for updates, on a change of nodeFields.
func nodeTrigger(proc, op string, nodeType int) string {
	event, cond := map[string]string{"create": "INSERT", "update": "UPDATE", "delete": "DELETE"}[op], ""
	switch op {
	case "delete":
		cond = fmt.Sprintf("OLD.node_type = '%d'", nodeType)
	case "create":
		cond = fmt.Sprintf("NEW.node_type = '%d'", nodeType)
	default:
		changed := make([]string, len(nodeFields))
		for i, f := range nodeFields {
			changed[i] = fmt.Sprintf("NEW.%[1]s IS DISTINCT FROM OLD.%[1]s", f)
		}
		cond = fmt.Sprintf("NEW.node_type = '%d' AND (%s)", nodeType, strings.Join(changed, " OR "))
	}
	name := "node_" + proc + "_" + op + "_notify"
	return fmt.Sprintf(`
DROP TRIGGER IF EXISTS %[1]s ON maasserver_node;
CREATE TRIGGER %[1]s
AFTER %[2]s ON maasserver_node
FOR EACH ROW
WHEN (%[3]s)
EXECUTE PROCEDURE %[4]s_%[5]s_notify();
`, name, event, cond, proc, op)
}
