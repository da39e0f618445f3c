package gpu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jsonBody skips leading lines that are not JSON, such as amd-smi's
// "WARNING: User is missing the following required groups" on stdout.
func jsonBody(out []byte) []byte {
	for len(out) > 0 {
		t := bytes.TrimLeft(out, " \t\r\n")
		if len(t) > 0 && (t[0] == '[' || t[0] == '{') {
			return t
		}
		i := bytes.IndexByte(out, '\n')
		if i < 0 {
			return nil
		}
		out = out[i+1:]
	}
	return nil
}

// gpuArray decodes a per-GPU array, plain or in the current metric
// envelope {"cpu_data": [...], "core_data": [...], "gpu_data": [...]}.
func gpuArray(out []byte, v any) error {
	body := jsonBody(out)
	if body == nil {
		return errors.New("amd-smi: no JSON in output")
	}
	if body[0] == '{' {
		var env struct {
			GPUData json.RawMessage `json:"gpu_data"`
		}
		if err := json.Unmarshal(body, &env); err != nil || env.GPUData == nil {
			return fmt.Errorf("amd-smi: unexpected JSON object")
		}
		body = env.GPUData
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("amd-smi: %w", err)
	}
	return nil
}

// amdValue is {"value": v, "unit": "u"} or the string "N/A".
type amdValue struct {
	Value *float64
	Unit  string
}

func (a *amdValue) UnmarshalJSON(b []byte) error {
	var v struct {
		Value *float64 `json:"value"`
		Unit  string   `json:"unit"`
	}
	if json.Unmarshal(b, &v) == nil {
		a.Value, a.Unit = v.Value, v.Unit
	}
	return nil // "N/A" and other strings stay unknown
}

// MiB converts to MiB, rounding up; MB as amd-smi prints it counts as MiB.
func (a amdValue) MiB() *int64 {
	if a.Value == nil {
		return nil
	}
	v := *a.Value
	switch strings.ToUpper(a.Unit) {
	case "B":
		v /= 1 << 20
	case "KB":
		v /= 1 << 10
	case "GB":
		v *= 1 << 10
	}
	n := int64(v)
	if float64(n) < v {
		n++
	}
	return &n
}

// amdCount is an int or "N/A".
type amdCount struct{ N *int64 }

func (a *amdCount) UnmarshalJSON(b []byte) error {
	var n int64
	if json.Unmarshal(b, &n) == nil {
		a.N = &n
	}
	return nil
}

// AMDListEntry is one amd-smi list --json entry.
type AMDListEntry struct {
	GPU  int    `json:"gpu"`
	BDF  string `json:"bdf"`
	UUID string `json:"uuid"`
}

// AMDStaticEntry is one amd-smi static --asic --json entry.
type AMDStaticEntry struct {
	GPU  int `json:"gpu"`
	ASIC struct {
		MarketName string `json:"market_name"`
		Serial     string `json:"asic_serial"`
	} `json:"asic"`
}

// AMDMetricEntry is one amd-smi metric --mem-usage --ecc --json entry.
type AMDMetricEntry struct {
	GPU      int `json:"gpu"`
	MemUsage struct {
		Total amdValue `json:"total_vram"`
		Used  amdValue `json:"used_vram"`
	} `json:"mem_usage"`
	ECC struct {
		Uncorrectable amdCount `json:"total_uncorrectable_count"`
	} `json:"ecc"`
}

// AMDProcessEntry is one amd-smi process --json entry; an idle GPU's
// process_info is the string "No running processes detected".
type AMDProcessEntry struct {
	GPU         int `json:"gpu"`
	ProcessList []struct {
		Info json.RawMessage `json:"process_info"`
	} `json:"process_list"`
}

// AMDProcess is a process_info object.
type AMDProcess struct {
	Name     string   `json:"name"`
	PID      int      `json:"pid"`
	MemUsage amdValue `json:"mem_usage"`
}

// Processes returns the entry's processes, skipping the idle string.
func (e AMDProcessEntry) Processes() []AMDProcess {
	var out []AMDProcess
	for _, p := range e.ProcessList {
		var proc AMDProcess
		if len(p.Info) > 0 && p.Info[0] == '{' && json.Unmarshal(p.Info, &proc) == nil {
			out = append(out, proc)
		}
	}
	return out
}

// AMDBadPagesEntry is one amd-smi bad-pages --json entry. Pending is the
// string "No bad pages found.", "N/A", one page object or a list.
type AMDBadPagesEntry struct {
	GPU     int             `json:"gpu"`
	Pending json.RawMessage `json:"pending"`
}

// PendingPages reports whether pages are pending; nil when unknown.
func (e AMDBadPagesEntry) PendingPages() *bool {
	var s string
	switch {
	case len(e.Pending) == 0:
		return nil
	case json.Unmarshal(e.Pending, &s) == nil:
		if strings.HasPrefix(s, "No bad pages") {
			return ptr(false)
		}
		return nil
	case e.Pending[0] == '[':
		var l []json.RawMessage
		if json.Unmarshal(e.Pending, &l) != nil {
			return nil
		}
		return ptr(len(l) > 0)
	}
	return ptr(true) // one page object
}

// ParseAMDReset reads amd-smi reset -G --json output, one or more JSON
// documents, into GPU index -> result text.
func ParseAMDReset(out []byte) (map[int]string, error) {
	res := map[int]string{}
	dec := json.NewDecoder(bytes.NewReader(jsonBody(out)))
	for {
		var doc []struct {
			GPU   int    `json:"gpu"`
			Reset string `json:"gpu_reset"`
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("amd-smi reset: %w", err)
		}
		for _, d := range doc {
			res[d.GPU] = d.Reset
		}
	}
}

// AMDResetOK reports whether a gpu_reset text is a success.
func AMDResetOK(s string) bool { return strings.HasPrefix(s, "Successfully reset") }
