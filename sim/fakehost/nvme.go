package fakehost

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// nvme is nvme-cli 2.x for the simulated drives: id-ctrl and
// sanitize-log print the recorded JSON (-o json), sanitize and format
// zero the namespaces they reach. A sanact or ses value listed in the
// controller's state file "fail" fails as a drive that aborts it does
// (exit 1, sanitize-log status 3), and a controller with a "noop" file
// reports success without erasing (a drive that lies).
func (h Host) nvme(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "usage: nvme <command> <device> [<args>]")
		return 1
	}
	dev := filepath.Base(args[1])
	ctrl := strings.TrimRightFunc(dev, func(r rune) bool { return r >= '0' && r <= '9' })
	if strings.HasSuffix(ctrl, "n") {
		ctrl = strings.TrimSuffix(ctrl, "n")
	} else {
		ctrl = dev
	}
	state := h.path(nvmeState(ctrl))
	id, err := os.ReadFile(filepath.Join(state, "id-ctrl.json"))
	if err != nil {
		fmt.Fprintf(stderr, "Failed to open %s: No such file or directory\n", args[1])
		return 1
	}
	switch args[0] {
	case "id-ctrl":
		_, _ = stdout.Write(id)
		return 0
	case "sanitize-log":
		b, err := os.ReadFile(filepath.Join(state, "sanitize-log.json"))
		if err != nil {
			b = []byte(sanitizeLog(ctrl, 0))
		}
		_, _ = stdout.Write(b)
		return 0
	case "sanitize":
		return h.nvmeErase(state, ctrl, "", flag(args, "--sanact="), stdout, stderr)
	case "format":
		return h.nvmeErase(state, ctrl, dev, flag(args, "--ses="), stdout, stderr)
	}
	fmt.Fprintf(stderr, "nvme: unknown command %s\n", args[0])
	return 1
}

func flag(args []string, prefix string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, prefix); ok {
			return v
		}
	}
	return ""
}

// nvmeErase zeroes namespace ns (format) or every namespace of ctrl
// (sanitize, ns ""), unless the op fails or the controller lies.
func (h Host) nvmeErase(state, ctrl, ns, op string, stdout, stderr io.Writer) int {
	fails, _ := os.ReadFile(filepath.Join(state, "fail"))
	key := map[bool]string{true: "sanact=", false: "ses="}[ns == ""] + op
	if slices.Contains(strings.Fields(string(fails)), key) {
		if ns == "" {
			_ = os.WriteFile(filepath.Join(state, "sanitize-log.json"), []byte(sanitizeLog(ctrl, 3)), 0o644)
		}
		fmt.Fprintf(stderr, "NVMe status: Invalid Field in Command: A reserved coded value or an unsupported value in a defined field(0x4002)\n")
		return 1
	}
	if _, err := os.Stat(filepath.Join(state, "noop")); err != nil {
		names, _ := filepath.Glob(h.path("/dev/" + ctrl + "n*"))
		for _, p := range names {
			if ns != "" && filepath.Base(p) != ns || strings.Contains(filepath.Base(p), "p") {
				continue
			}
			if fi, err := os.Stat(p); err == nil {
				_ = os.Truncate(p, 0)
				_ = os.Truncate(p, fi.Size())
			}
		}
	}
	if ns == "" {
		_ = os.WriteFile(filepath.Join(state, "sanitize-log.json"), []byte(sanitizeLog(ctrl, 1)), 0o644)
		return 0
	}
	fmt.Fprintf(stdout, "Success formatting namespace:1\n")
	return 0
}

// sanitizeLog is nvme-cli 2.x's sanitize-log JSON with status code st.
func sanitizeLog(ctrl string, st int) string {
	text := map[int]string{0: "NVM Subsystem has never been sanitized.",
		1: "The most recent sanitize operation completed successfully including any additional media modification.",
		3: "The most recent sanitize operation failed."}[st]
	return fmt.Sprintf(`{"%s":{"sprog":65535,"sstat":{"global_erased":0,"no_cmplted_passes":0,"status":"(%d) %s"},`+
		`"cdw10_info":4,"time_over_write":4294967295,"time_block_erase":4294967295,"time_crypto_erase":4294967295,`+
		`"time_over_write_no_dealloc":4294967295,"time_block_erase_no_dealloc":4294967295,"time_crypto_erase_no_dealloc":4294967295}}`+"\n",
		ctrl, st, text)
}
