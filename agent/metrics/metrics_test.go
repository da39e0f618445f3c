package metrics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// readFile parses the written file; it fails the test on a parse error.
func readFile(t *testing.T, dir string) map[string]*dto.MetricFamily {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var p expfmt.TextParser
	mfs, err := p.TextToMetricFamilies(f)
	if err != nil {
		t.Fatalf("the file does not parse: %v", err)
	}
	return mfs
}

// value is the sample of name whose labels include want ("" label
// values match nothing else); -1 when there is none.
func value(mfs map[string]*dto.MetricFamily, name string, want ...string) float64 {
	mf := mfs[name]
	if mf == nil {
		return -1
	}
	for _, m := range mf.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		ok := true
		for i := 0; i+1 < len(want); i += 2 {
			ok = ok && got[want[i]] == want[i+1]
		}
		if !ok {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		}
	}
	return -1
}

// TestWhatTheFileSays: every hook shows in the written file with bounded
// labels; series exist at zero before anything happens.
func TestWhatTheFileSays(t *testing.T) {
	dir := t.TempDir()
	m := New("1.2.3", []string{"node.drain", "node.heartbeat_check"})
	if err := m.WriteFile(dir, t0); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, dir)
	for _, c := range [][]string{
		{"gpuaas_node_agent_tasks_total", "type", "node.drain", "result", ResultFailure},
		{"gpuaas_node_agent_tasks_total", "type", OtherType, "result", ResultRejected},
		{"gpuaas_node_agent_refusals_total", "reason", RefusedCertificate},
		{"gpuaas_node_agent_refusals_total", "reason", RefusedEnrollmentToken},
		{"gpuaas_node_agent_enrolled"},
	} {
		if v := value(before, c[0], c[1:]...); v != 0 {
			t.Errorf("before anything happened %v = %v, want a series at 0", c, v)
		}
	}
	m.TaskDone("node.drain", ResultSuccess)
	m.TaskDone("node.drain", ResultSuccess)
	m.TaskDone("a.type.from.a.forged.task", ResultRejected)
	m.Contacted(t0.Add(time.Minute))
	m.Enrolled(t0.Add(30 * time.Second))
	m.Refused(RefusedCertificate)
	if err := m.WriteFile(dir, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	mfs := readFile(t, dir)
	got := map[string]float64{
		"drain ok":       value(mfs, "gpuaas_node_agent_tasks_total", "type", "node.drain", "result", ResultSuccess),
		"other rejected": value(mfs, "gpuaas_node_agent_tasks_total", "type", OtherType, "result", ResultRejected),
		"forged type":    value(mfs, "gpuaas_node_agent_tasks_total", "type", "a.type.from.a.forged.task"),
		"contact":        value(mfs, "gpuaas_node_agent_last_contact_timestamp_seconds"),
		"enrolled":       value(mfs, "gpuaas_node_agent_enrolled"),
		"enrolled at":    value(mfs, "gpuaas_node_agent_last_enrollment_timestamp_seconds"),
		"cert refusals":  value(mfs, "gpuaas_node_agent_refusals_total", "reason", RefusedCertificate),
		"written":        value(mfs, "gpuaas_node_agent_metrics_write_timestamp_seconds"),
		"build":          value(mfs, "gpuaas_node_agent_build_info", "version", "1.2.3"),
	}
	want := map[string]float64{"drain ok": 2, "other rejected": 1, "forged type": -1,
		"contact": float64(t0.Add(time.Minute).Unix()), "enrolled": 1, "enrolled at": float64(t0.Add(30 * time.Second).Unix()),
		"cert refusals": 1, "written": float64(t0.Add(2 * time.Minute).Unix()), "build": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
}

// SetEnrolled signals a change only when the value changes, so the
// loop's call after every step does not rewrite the file each time.
func TestSetEnrolledNotifiesOnChange(t *testing.T) {
	m := New("dev", nil)
	m.SetEnrolled(false)
	select {
	case <-m.Changed():
		t.Fatal("an unchanged enrolled state signalled a change")
	default:
	}
	m.SetEnrolled(true)
	select {
	case <-m.Changed():
	default:
		t.Fatal("enrolling signalled no change")
	}
}

// A label value and a help text with the text format's special
// characters are escaped: the file parses and gives the value back.
func TestLabelValuesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	version := "1.0 \"rc\" \\ build\nline2"
	m := New(version, []string{`node.a"b`})
	m.TaskDone(`node.a"b`, ResultSuccess)
	if err := m.WriteFile(dir, t0); err != nil {
		t.Fatal(err)
	}
	mfs := readFile(t, dir)
	if v := value(mfs, "gpuaas_node_agent_build_info", "version", version); v != 1 {
		t.Errorf("build_info with version %q = %v, want 1", version, v)
	}
	if v := value(mfs, "gpuaas_node_agent_tasks_total", "type", `node.a"b`, "result", ResultSuccess); v != 1 {
		t.Errorf("tasks_total of a quoted type = %v, want 1", v)
	}
}

// The file reads as Prometheus's own client writes it (what dashboards
// and the end-to-end test match): labels in name order, series sorted.
func TestFileLinesAsPrometheusWritesThem(t *testing.T) {
	dir := t.TempDir()
	m := New("1.0", []string{"node.drain", "allocation.revoke_user"})
	m.TaskDone("allocation.revoke_user", ResultSuccess)
	m.TaskDone("allocation.revoke_user", ResultSuccess)
	if err := m.WriteFile(dir, t0); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# TYPE gpuaas_node_agent_tasks_total counter\ngpuaas_node_agent_tasks_total{result=\"failure\",type=\"allocation.revoke_user\"} 0\n",
		"gpuaas_node_agent_tasks_total{result=\"success\",type=\"allocation.revoke_user\"} 2\n",
		"gpuaas_node_agent_metrics_write_timestamp_seconds 1.7408304e+09\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("file lacks %q:\n%s", want, b)
		}
	}
}
