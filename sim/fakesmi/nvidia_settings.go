package fakesmi

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// powerLimit is nvidia-smi -pl W: within 200 W and the default it sets
// the limit, as the real tool prints it; outside it fails with exit 2.
func (n *NVIDIAState) powerLimit(v string, sel []*NVIDIAGPU, stdout, stderr io.Writer) int {
	w, err := strconv.ParseFloat(v, 64)
	if err != nil || w < 200 || w > PowerDefaultW {
		fmt.Fprintf(stderr, "Provided power limit %s W is not a valid power limit which should be between 200.00 W and %.2f W for GPU %s\n",
			v, PowerDefaultW, sel[0].BusID)
		return exitInvalid
	}
	for _, g := range sel {
		g.PowerLimitW = w
		fmt.Fprintf(stdout, "Power limit for GPU %s was set to %.2f W from %.2f W.\n", g.BusID, w, g.power())
	}
	fmt.Fprintln(stdout, "All done.")
	return 0
}

func (g *NVIDIAGPU) power() float64 {
	if g.PowerLimitW > 0 {
		return g.PowerLimitW
	}
	return PowerDefaultW
}

// clientActive reports whether one of ClientUnits is active on the
// simulated host (its state file ends in "active").
func clientActive(root string) bool {
	for _, u := range ClientUnits {
		b, err := os.ReadFile(filepath.Join(root, UnitsDir, u))
		if err == nil && strings.HasSuffix(strings.TrimSpace(string(b)), " active") {
			return true
		}
	}
	return false
}
