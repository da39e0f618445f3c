package maas_test

import "testing"

// FuzzMachineListDecode holds the hand-written machine list decoder to
// encoding/json decoding the same bytes into the wire types: the same
// machines, or both refuse with the same lifecycle error.
func FuzzMachineListDecode(f *testing.F) {
	f.Add([]byte(everyField))
	for _, b := range []string{"", "null", "[]", "[null]", "[{}]", `[{"system_id":"a\u00e9\n\/\t"}]`,
		"[{\"hostname\":\"\xff\xfe\"}]", `[{"host\u006eame":"h"}]`, `[{"ip_addresses":[null,"x"]}]`,
		`[{"interface_set":[null,{"links":[null,{"subnet":null}]}]}]`, `[{"status":1,"status":2}]`,
		`[{"x":[1.5e10,-2,0.5,1E+2,true,false,null,{"y":[]},"\ud83d\ude00"]}]`, `[{"sync_interval":9223372036854775807}]`,
		`[{"last_sync":"2024-01-02T03:04:05Z"}]`, `[{"last_sync":"not a time"}]`, "[{}] x", `[{"a":01}]`,
		`[{"status":4.5}]`, `[{"status":99999999999999999999}]`, `[{"boot_disk":{"id":"7"}}]`, `[{"a":"\ud800"}]`} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameDecode(t, body)
	})
}
