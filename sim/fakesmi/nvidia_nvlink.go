package fakesmi

import (
	"fmt"
	"io"
	"slices"
)

// nvlink answers nvidia-smi nvlink -s (each link's speed, or <inactive>)
// and -e (each link's replay, recovery and CRC error counters), one
// "GPU n: name (UUID: ...)" header per GPU.
func (n *NVIDIAState) nvlink(flag string, sel []*NVIDIAGPU, stdout, stderr io.Writer) int {
	if flag != "-s" && flag != "-e" {
		fmt.Fprintln(stderr, "fakesmi: nvlink: only -s and -e are simulated")
		return exitInvalid
	}
	for _, g := range sel {
		fmt.Fprintf(stdout, "GPU %d: %s (UUID: %s)\n", g.Index, g.Name, g.UUID)
		for l := range g.NVLinks {
			down := slices.Contains(g.NVLinkDown, l)
			switch {
			case flag == "-s" && down:
				fmt.Fprintf(stdout, "\t Link %d: <inactive>\n", l)
			case flag == "-s":
				fmt.Fprintf(stdout, "\t Link %d: 26.562 GB/s\n", l)
			default:
				crc := int64(0)
				if l == 0 {
					crc = g.NVLinkCRC
				}
				fmt.Fprintf(stdout, "\t Link %d: Replay Errors: 0\n\t Link %d: Recovery Errors: 0\n\t Link %d: CRC Errors: %d\n", l, l, l, crc)
			}
		}
	}
	return 0
}
