package cli

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FuzzOnboardCSV checks the onboarding batch import: a file is refused
// with a usage error naming the file, or every node it gives has a host
// name and a BMC address, none repeated, and writing the nodes back as CSV
// reads back the same nodes.
func FuzzOnboardCSV(f *testing.F) {
	f.Add([]byte("hostname,ipmi_ip\ngpu-01,10.0.0.1\ngpu-02,10.0.0.2\n"))
	f.Add([]byte("\ufeffIPMI_IP, Hostname ,gpus_total,region_code\n# rack 7\n10.0.0.1,GPU-01,8,dc1\n\n fe80::1 ,gpu-02,,\n"))
	f.Add([]byte("hostname,ipmi_ip\ngpu-01,10.0.0.1\nGPU-01,10.0.0.2\n"))
	f.Add([]byte("hostname,ipmi_ip\n\"gpu\n01\",10.0.0.1\n"))
	f.Add([]byte("hostname,ipmi_ip,gpus_total\ngpu-01,10.0.0.1,-1\n"))
	f.Add([]byte("hostname,ipmi_ip,ipmi_ip\n"))
	f.Add([]byte("hostname\ngpu-01\n"))
	f.Add([]byte(""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "nodes.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		nodes, err := csvNodes(path)
		if err != nil {
			var u usageError
			if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("refusal %T %q does not name the file", err, err)
			}
			return
		}
		if len(nodes) == 0 {
			t.Fatal("accepted a file without nodes")
		}
		for _, n := range nodes {
			if !lifecycle.ValidHostname(n.Hostname) || n.IPMIIP == "" || (n.GPUsTotal != nil && *n.GPUsTotal <= 0) {
				t.Fatalf("accepted a node outside the limits: %+v", n)
			}
		}
		if err := os.WriteFile(path, writeNodes(t, nodes), 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := csvNodes(path)
		if err != nil {
			t.Fatalf("the nodes written back are refused: %v", err)
		}
		if d := cmp.Diff(nodes, again); d != "" {
			t.Fatalf("round trip (-read +again):\n%s", d)
		}
	})
}

func writeNodes(t *testing.T, nodes []node) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	rows := [][]string{{"hostname", "ipmi_ip", "gpus_total", "region_code"}}
	for _, n := range nodes {
		g := ""
		if n.GPUsTotal != nil {
			g = strconv.Itoa(*n.GPUsTotal)
		}
		rows = append(rows, []string{n.Hostname, n.IPMIIP, g, n.RegionCode})
	}
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// FuzzRoCECSV checks the RoCE assignment import: refused with a usage
// error naming the file, or every item is a valid assignment, none
// repeated.
func FuzzRoCECSV(f *testing.F) {
	f.Add([]byte("hostname,interface,ipv4_cidr\ngpu-01,ens1f0,10.1.0.1/31\ngpu-01,ens1f1,10.1.0.3/31\n"))
	f.Add([]byte("hostname,interface,ipv4_cidr\ngpu-01,ens1f0,10.1.0.1\n"))
	f.Add([]byte("hostname,interface,ipv4_cidr\ngpu-01,ens1f0,10.1.0.1/31\nGPU-01,ens1f0,10.1.0.5/31\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "roce.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		rows, err := readCSV(path, "hostname", "interface", "ipv4_cidr")
		var items []roceItem
		if err == nil {
			items, err = roceRows(path, rows)
		}
		if err != nil {
			var u usageError
			if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("refusal %T %q does not name the file", err, err)
			}
			return
		}
		seen := map[string]bool{}
		for _, it := range items {
			a := lifecycle.RoCEAssignment{Hostname: it.Hostname, Interface: it.Interface, IPv4CIDR: it.IPv4CIDR}
			if a.Validate() != nil || seen[it.Hostname+"/"+it.Interface] {
				t.Fatalf("accepted an invalid or repeated item %+v", it)
			}
			seen[it.Hostname+"/"+it.Interface] = true
		}
	})
}
