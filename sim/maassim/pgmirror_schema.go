package maassim

// mirrorSchema creates MAAS's node and event tables (the columns the
// simulator fills and every column a trigger condition names) and MAAS
// 3.6.5's trigger functions and triggers on them, as
// src/maasserver/triggers/websocket.py renders them (docs/maas-notify.md).
// Every statement is idempotent: MAAS itself re-registers its triggers at
// each start with CREATE OR REPLACE FUNCTION and DROP/CREATE TRIGGER.
// The per-node-type triggers are nodeTriggers (pgmirror_triggers.go).
// Reductions: no foreign keys (the referenced tables do not exist),
// hostname is not unique, and created/updated default to now().
const mirrorSchema = `
CREATE TABLE IF NOT EXISTS maasserver_node (
  id bigserial PRIMARY KEY,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  system_id varchar(41) NOT NULL UNIQUE,
  hostname varchar(255) NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  status integer NOT NULL DEFAULT 0,
  previous_status integer NOT NULL DEFAULT 0,
  owner_id integer,
  osystem varchar(255) NOT NULL DEFAULT '',
  distro_series varchar(255) NOT NULL DEFAULT '',
  architecture varchar(31),
  min_hwe_kernel varchar(31),
  hwe_kernel varchar(31),
  node_type integer NOT NULL DEFAULT 0,
  parent_id bigint,
  error_description text NOT NULL DEFAULT '',
  zone_id bigint,
  pool_id bigint,
  domain_id bigint,
  cpu_count integer NOT NULL DEFAULT 0,
  cpu_speed integer NOT NULL DEFAULT 0,
  memory integer NOT NULL DEFAULT 0,
  swap_size bigint,
  bmc_id bigint,
  instance_power_parameters jsonb NOT NULL DEFAULT '""',
  power_state varchar(10) NOT NULL DEFAULT 'unknown',
  power_state_updated timestamptz,
  last_image_sync timestamptz,
  error varchar(255) NOT NULL DEFAULT '',
  license_key varchar(30),
  locked boolean NOT NULL DEFAULT false,
  current_commissioning_script_set_id bigint,
  current_installation_script_set_id bigint,
  current_testing_script_set_id bigint,
  enable_hw_sync boolean NOT NULL DEFAULT false,
  sync_interval integer,
  last_sync timestamptz
);

CREATE TABLE IF NOT EXISTS maasserver_eventtype (
  id bigserial PRIMARY KEY,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  name varchar(255) NOT NULL UNIQUE,
  description varchar(255) NOT NULL,
  level integer NOT NULL
);

CREATE TABLE IF NOT EXISTS maasserver_event (
  id bigserial PRIMARY KEY,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  type_id bigint NOT NULL,
  node_id bigint,
  node_system_id varchar(41),
  node_hostname varchar(255) NOT NULL DEFAULT '',
  user_id integer,
  username varchar(150) NOT NULL DEFAULT '',
  ip_address inet,
  endpoint integer NOT NULL DEFAULT 0,
  user_agent text NOT NULL DEFAULT '',
  action text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT ''
);

CREATE OR REPLACE FUNCTION node_type_change_notify()
RETURNS trigger AS $$
BEGIN
  IF (OLD.node_type != NEW.node_type AND NOT (
      (OLD.node_type IN (2, 3, 4)) AND
      (NEW.node_type IN (2, 3, 4))
     )) THEN
    CASE OLD.node_type
      WHEN 0 THEN
        PERFORM pg_notify('machine_delete',CAST(
          OLD.system_id AS TEXT));
      WHEN 1 THEN
        PERFORM pg_notify('device_delete',CAST(
          OLD.system_id AS TEXT));
      WHEN 2 THEN
        PERFORM pg_notify('controller_delete',CAST(
          OLD.system_id AS TEXT));
      WHEN 3 THEN
        PERFORM pg_notify('controller_delete',CAST(
          OLD.system_id AS TEXT));
      WHEN 4 THEN
        PERFORM pg_notify('controller_delete',CAST(
          OLD.system_id AS TEXT));
    END CASE;
    CASE NEW.node_type
      WHEN 0 THEN
        PERFORM pg_notify('machine_create',CAST(
          NEW.system_id AS TEXT));
      WHEN 1 THEN
        PERFORM pg_notify('device_create',CAST(
          NEW.system_id AS TEXT));
      WHEN 2 THEN
        PERFORM pg_notify('controller_create',CAST(
          NEW.system_id AS TEXT));
      WHEN 3 THEN
        PERFORM pg_notify('controller_create',CAST(
          NEW.system_id AS TEXT));
      WHEN 4 THEN
        PERFORM pg_notify('controller_create',CAST(
          NEW.system_id AS TEXT));
    END CASE;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS node_node_type_change_notify ON maasserver_node;
CREATE TRIGGER node_node_type_change_notify
AFTER UPDATE ON maasserver_node
FOR EACH ROW
WHEN ((NEW.node_type IS DISTINCT FROM OLD.node_type))
EXECUTE PROCEDURE node_type_change_notify();

CREATE OR REPLACE FUNCTION event_create_notify() RETURNS trigger AS $$
DECLARE
BEGIN
  PERFORM pg_notify('event_create',CAST(NEW.id AS text));
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS event_event_create_notify ON maasserver_event;
CREATE TRIGGER event_event_create_notify
AFTER INSERT ON maasserver_event
FOR EACH ROW
EXECUTE PROCEDURE event_create_notify();

CREATE OR REPLACE FUNCTION event_machine_update_notify() RETURNS trigger AS $$
DECLARE
  type RECORD;
  node RECORD;
BEGIN
  SELECT level INTO type
  FROM maasserver_eventtype
  WHERE maasserver_eventtype.id = NEW.type_id;
  IF type.level >= 20 THEN
    SELECT system_id, node_type INTO node
    FROM maasserver_node
    WHERE maasserver_node.id = NEW.node_id;

    IF node.node_type = 0 THEN
      PERFORM pg_notify('machine_update',CAST(node.system_id AS text));
    ELSIF node.node_type IN (2, 3, 4) THEN
      PERFORM pg_notify('controller_update',CAST(node.system_id AS text));
    END IF;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS event_event_machine_update_notify ON maasserver_event;
CREATE TRIGGER event_event_machine_update_notify
AFTER INSERT ON maasserver_event
FOR EACH ROW
EXECUTE PROCEDURE event_machine_update_notify();
`
