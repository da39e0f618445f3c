package maas_test

import "testing"

// TestMachineListDecodeEdges holds the client's decode to encoding/json's
// results and errors on odd and malformed answers.
func TestMachineListDecodeEdges(t *testing.T) {
	for _, body := range []string{
		// valid
		"", "null", "[]", " [ ] \n", "[null]", "[{}]", `[{"system_id":"a\u00e9\n\/\t"}]`, "[{\"hostname\":\"\xff\xfe\"}]",
		`[{"host\u006eame":"h"}]`, `[{"ip_addresses":null}]`, `[{"ip_addresses":[null,"x"]}]`, `[{"status":-0}]`,
		`[{"interface_set":[null,{"links":[null,{"subnet":null}]}]}]`, `[{"interface_set":[]}]`,
		`[{"status":1,"status":2,"interface_set":[{"id":1}],"interface_set":[{"id":2}]}]`,
		`[{"x":[1.5e10,-2,0.5,1E+2,true,false,null,{"y":[]},"\ud83d\ude00"]}]`, `[{"sync_interval":9223372036854775807}]`,
		`[{"last_sync":""}]`, `[{"last_sync":"not a time"}]`, `[{"boot_disk":{}}]`,
		// malformed
		" ", "{}", `"x"`, "1", "[1]", `["x"]`, "[[]]", "<html>", "[", "[{", `[{"system_id":"a"`, `[{"system_id":"a"}`,
		"[{}] x", "[{}][]", "[{},]", "[,]", `[{"a":1,}]`, `[{"a" 1}]`, `[{a:1}]`, `[{"a":tru}]`, `[{"a":nul}]`,
		`[{"a":01}]`, `[{"a":-}]`, `[{"a":1.}]`, `[{"a":1e}]`, `[{"a":.5}]`, `[{"a":+1}]`, `[{"a":"\q"}]`, `[{"a":"\u12"}]`,
		"[{\"a\":\"x\x01\"}]", `[{"a":"x}]`, `[{"system_id":5}]`, `[{"status":4.5}]`, `[{"status":"4"}]`, `[{"status":1e2}]`,
		`[{"status":99999999999999999999}]`, `[{"status":true}]`, "[{}]\x00", "\x00[]", "[{}\x00]", `[{"ip_addresses":[1]}]`, `[{"ip_addresses":"x"}]`,
		`[{"enable_hw_sync":"yes"}]`, `[{"enable_hw_sync":1}]`, `[{"boot_interface":{"mac_address":1}}]`, `[{"boot_disk":[]}]`,
		`[{"boot_disk":{"id":"7"}}]`, `[{"interface_set":{}}]`, `[{"interface_set":[{"links":[{"subnet":{"id":"x"}}]}]}]`,
		`[{"interface_set":[{"vlan":{"vid":1.5}}]}]`, `[{"last_sync":3}]`, `[{"owner":{}}]`,
	} {
		sameDecode(t, []byte(body))
	}
}
